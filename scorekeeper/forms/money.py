"""Forms of payments: a transfer marked paid, in whole or in part, and a
payment taken back."""

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import HiddenField, IntegerField
from wtforms.validators import InputRequired, Length, NumberRange, Optional, ValidationError
from wtforms.widgets import HiddenInput

from ..limits import CURRENCY_MAX, ID_MAX
from .sessions import MoneyField

CENTS_MAX = 10 ** 9  # one amount: as a backup's


def _an_id():
    return IntegerField(widget=HiddenInput(),
                        validators=[InputRequired(), NumberRange(1, ID_MAX)])


class PayForm(FlaskForm):
    """One transfer paid: ``cents``, what the page showed as owed (all of it
    is paid); or ``amount``, typed, for a part."""

    payer_id = _an_id()
    payee_id = _an_id()
    cents = IntegerField(widget=HiddenInput(),
                         validators=[InputRequired(), NumberRange(1, CENTS_MAX)])
    amount = MoneyField(_l("Amount paid"), validators=[Optional()])

    def paying(self) -> int:
        """The cents marked paid."""
        return self.cents.data if self.amount.data is None else self.amount.data

    def validate_amount(self, field):
        if field.data is not None and field.data <= 0:
            raise ValidationError(_l("Type the amount paid, more than 0.00."))


class PayAcrossForm(PayForm):
    """One of "Settle everything"'s transfers paid, in its currency."""

    currency = HiddenField(validators=[InputRequired(), Length(max=CURRENCY_MAX)])


class UndoPaymentForm(FlaskForm):
    payment_id = _an_id()
