"""The form that imports a backup into a new group."""

from flask_wtf.file import FileField, FileRequired

from .groups import CreateGroupForm


class ImportGroupForm(CreateGroupForm):
    """A new group's name, passphrase and this phone's name, as when creating
    one, and the backup file to fill it from."""

    backup = FileField("Backup file", validators=[
        FileRequired("Choose the backup file (.json) exported from a group's page.")],
        render_kw={"accept": ".json,application/json"})
