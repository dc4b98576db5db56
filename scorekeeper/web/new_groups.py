"""What the pages that make a group share (a new group, an import): whether
this instance takes one now, the form naming the group and this phone, and
the answer past the hourly limit on new groups."""

from flask import current_app, make_response, request
from flask_babel import gettext as _
from flask_babel import ngettext

from .. import services
from .access import device_label
from .phone_choice import kept_label, shown_name


def guess_device() -> str:
    """A first name for this phone, from its browser; the user may change it."""
    agent = request.headers.get("User-Agent", "")
    # Translators: a first name for the phone, which its owner may change.
    for marker, label in (("iPhone", "iPhone"), ("iPad", "iPad"), ("Android", _("Android phone"))):
        if marker in agent:
            return label
    return _("Computer")


def single_group() -> str | None:
    return current_app.config["SINGLE_GROUP"]


def may_create_group() -> bool:
    """Whether this instance takes a new group now."""
    if (name := single_group()) is not None:
        return services.find_group(name) is None
    return current_app.config["NEW_GROUPS"]


def group_form(form_class, **data):
    """A form naming a group and this phone: the phone's name filled in, and no
    group name to type on an instance that serves one group."""
    form = form_class(data={"device": shown_name(device_label()) or guess_device(), **data})
    if single_group():
        del form.name
    return form


def device_typed(form) -> str:
    """The phone's label that a form of group_form gives (phone_choice.kept_label)."""
    return kept_label(form.device.data, device_label())


def group_name(form) -> str:
    """The group a form of group_form names."""
    return single_group() or form.name.data


def too_many(what: str, full: services.TooManyNewGroups) -> str:
    """Why a new group (``what`` "new groups") or an import ("imports") is refused for now."""
    minutes = -(-full.retry_after // 60)
    if what == "imports":
        return ngettext("there have been too many imports from here, or on this whole site, "
                        "in the last hour; try again in %(minutes)s minute",
                        "there have been too many imports from here, or on this whole site, "
                        "in the last hour; try again in %(minutes)s minutes",
                        minutes, minutes=minutes)
    return ngettext("there have been too many new groups from here, or on this whole site, "
                    "in the last hour; try again in %(minutes)s minute",
                    "there have been too many new groups from here, or on this whole site, "
                    "in the last hour; try again in %(minutes)s minutes",
                    minutes, minutes=minutes)


def refused_for_now(full: services.TooManyNewGroups, page: str):
    """The form shown back as typed, answered 429 with Retry-After."""
    response = make_response(page, 429)
    response.headers["Retry-After"] = str(full.retry_after)
    return response
