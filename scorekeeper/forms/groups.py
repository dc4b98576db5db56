"""Forms for groups: create one, sign in, change the passphrase, name the phone."""

from flask_wtf import FlaskForm
from wtforms import HiddenField, PasswordField, StringField
from wtforms.validators import EqualTo, InputRequired, Length

from ..models import DEVICE_MAX, GROUP_NAME_MAX
from ..services import PASSPHRASE_MIN

PASSPHRASE_MAX = 200


def _device_field():
    return StringField(
        "This phone's name", validators=[
            InputRequired("Name this phone, so the history says who changed what."),
            Length(max=DEVICE_MAX, message=f"Use at most {DEVICE_MAX} characters.")])


def _passphrase_field(label):
    return PasswordField(label, validators=[
        InputRequired("Type the passphrase."),
        Length(min=PASSPHRASE_MIN, max=PASSPHRASE_MAX,
               message=f"A passphrase has {PASSPHRASE_MIN} to {PASSPHRASE_MAX} characters.")])


class CreateGroupForm(FlaskForm):
    name = StringField("Group name", validators=[
        InputRequired("Name the group."),
        Length(max=GROUP_NAME_MAX, message=f"Use at most {GROUP_NAME_MAX} characters.")])
    passphrase = _passphrase_field("Passphrase")
    confirm = PasswordField("Passphrase again", validators=[
        EqualTo("passphrase", message="The two passphrases differ.")])
    device = _device_field()


class SignInForm(FlaskForm):
    name = StringField("Group name", validators=[
        InputRequired("Type the group's name."), Length(max=GROUP_NAME_MAX)])
    passphrase = PasswordField("Passphrase", validators=[
        InputRequired("Type the passphrase."), Length(max=PASSPHRASE_MAX)])
    device = _device_field()
    next = HiddenField()


class PassphraseForm(FlaskForm):
    current = PasswordField("Current passphrase", validators=[
        InputRequired("Type the current passphrase."), Length(max=PASSPHRASE_MAX)])
    passphrase = _passphrase_field("New passphrase")
    confirm = PasswordField("New passphrase again", validators=[
        EqualTo("passphrase", message="The two passphrases differ.")])


class DeviceForm(FlaskForm):
    device = _device_field()


class ButtonForm(FlaskForm):
    """A POST that is only a button (sign out, revoke): the CSRF token and nothing else."""
