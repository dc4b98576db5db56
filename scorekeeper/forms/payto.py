"""The form of a player's payment details (paying by QR); validation of its
shape only: the service checks the details themselves."""

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from flask_wtf.file import FileField
from wtforms import SelectField, StringField, TextAreaField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import Length, Optional

from ..limits import PAYTO_MAX
from ..payto import Kind

# Each kind of details in words, in the order the form lists them.
KIND_LABELS = {
    Kind.DUITNOW_MOBILE: _l("DuitNow: mobile number (Malaysia)"),
    Kind.DUITNOW_MYKAD: _l("DuitNow: MyKad number (Malaysia)"),
    Kind.DUITNOW_BUSINESS: _l("DuitNow: business registration number (Malaysia)"),
    Kind.PAYNOW_MOBILE: _l("PayNow: mobile number (Singapore)"),
    Kind.PAYNOW_UEN: _l("PayNow: UEN (Singapore)"),
    Kind.BANK_QR: _l("My bank's own \"receive money\" QR"),
}


def _stripped(text):
    return (text or "").strip()


class PaytoForm(FlaskForm):
    kind = SelectField(
        _l("How you are paid"), default="",
        choices=[SelectChoice("", _l("No payment details"))] + [
            SelectChoice(k.value, label) for k, label in KIND_LABELS.items()],
        invalid_choice_message=_l("Choose how you are paid from the list."))
    number = StringField(
        _l("DuitNow ID, PayNow number or UEN"), filters=[_stripped],
        description=_l("For a DuitNow or PayNow choice above: the number your bank knows you "
                       "by, such as 012-345 6789."),
        validators=[Optional(), Length(max=40, message=_l("Use at most %(max)s characters.",
                                                          max=40))])
    qr_text = TextAreaField(
        _l("Your bank's QR, as text"), filters=[_stripped],
        description=_l("For your bank's own QR: paste what the code holds (it starts with "
                       "000201 or 000202), or upload a photo of it below."),
        validators=[Optional(), Length(max=PAYTO_MAX, message=_l(
            "Use at most %(max)s characters.", max=PAYTO_MAX))])
    photo = FileField(
        _l("Or a photo of your bank's QR"),
        description=_l("A screenshot or photo of the QR your bank app shows under \"receive "
                       "money\" (JPEG or PNG)."))

    def validate(self, extra_validators=None) -> bool:
        if not super().validate(extra_validators):
            return False
        if self.kind.data == Kind.BANK_QR:
            if not self.qr_text.data and not self.photo.data:
                self.qr_text.errors = [_l("Paste the text of your bank's QR, or upload a "
                                          "photo of it.")]
                return False
        elif self.kind.data and not self.number.data:
            self.number.errors = [_l("Type the number.")]
            return False
        return True
