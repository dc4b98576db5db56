"""The form that imports a backup into a new group."""

from flask_babel import lazy_gettext as _l
from flask_wtf.file import FileField, FileRequired

from .groups import CreateGroupForm


class ImportGroupForm(CreateGroupForm):
    """A new group's name, passphrase and this phone's name, as when creating
    one, and the backup file to fill it from."""

    backup = FileField(_l("Backup file"), validators=[
        FileRequired(_l("Choose the backup file (.json) exported from a group's page."))],
        render_kw={"accept": ".json,application/json"})
