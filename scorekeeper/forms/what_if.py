"""The What if page's form: a session's house rules changed for a look, never
saved (a GET form, so no CSRF token), and a preset to start from."""

from flask_babel import lazy_gettext as _l
from wtforms import SelectField
from wtforms.fields.choices import SelectChoice

from ..rules import PRESETS, HouseRules
from .sessions import PRESET_NAMES, HouseRulesForm, rule_data

OWN = "session"  # the preset "this session's rules"


class WhatIfForm(HouseRulesForm):
    """Every house rule of the session's rules form, and where to start from."""

    class Meta:
        csrf = False  # it changes nothing: looked at with a GET

    currency = None  # the money stays in the session's currency
    preset = SelectField(_l("Start from"), default=OWN, choices=[
        SelectChoice(OWN, _l("This session's rules")),
        *(SelectChoice(key, label) for key, label in PRESET_NAMES.items())])

    def with_preset(self, own: HouseRules) -> "WhatIfForm":
        """A fresh form with the chosen preset's rules (``own``: the
        session's, also for a preset that is none)."""
        key = self.preset.data if self.preset.data in PRESETS else OWN
        return self.filled(PRESETS[key]() if key in PRESETS else own, key)

    @classmethod
    def filled(cls, rules: HouseRules, preset: str = OWN) -> "WhatIfForm":
        """The form holding ``rules``, as the page opens or a preset fills it."""
        return cls(formdata=None, data={**rule_data(rules), "preset": preset})
