"""The rules page: every house rule with its one-line explanation (the
form field's description, as the forms show it) and its value in each
preset; and the round's outcomes with their helper lines."""

from __future__ import annotations

from dataclasses import dataclass

from flask_babel import gettext as _
from wtforms import BooleanField, SelectField

from ...forms.rounds import OUTCOME_HELP
from ...forms.sessions import PRESET_NAMES, RULE_FIELDS, HouseRulesForm, rule_data
from ...rules import PRESETS


@dataclass(frozen=True)
class BookRule:
    """A house rule as the rules page lists it: the preset values in PRESETS' order."""

    label: str
    explained: str
    values: tuple[str, ...]


def shown_value(field) -> str:
    """A field's value as its form shows it: a choice's words, Yes or No, or the text."""
    if isinstance(field, BooleanField):
        return _("Yes") if field.data else _("No")
    if isinstance(field, SelectField):
        return next(c.label for c in field.choices if c.value == field.data)
    return field._value()


def house_rules_book() -> list[BookRule]:
    """Every house rule, in the forms' order."""
    forms = [HouseRulesForm(formdata=None, data=rule_data(make()), meta={"csrf": False})
             for make in PRESETS.values()]
    return [BookRule(str(forms[0][name].label.text), forms[0][name].description,
                     tuple(shown_value(form[name]) for form in forms))
            for name in RULE_FIELDS]


def preset_names() -> list[str]:
    return [str(PRESET_NAMES[key]) for key in PRESETS]


def outcome_help() -> list[str]:
    return [str(line) for line in OUTCOME_HELP.values()]
