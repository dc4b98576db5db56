// Show the chosen player's sessions as soon as one is picked.
document.getElementById("player").addEventListener("change", function () { this.form.submit(); });
