"""Groups: create one, sign in and out, and the group's own page (passphrase,
this phone's name, time zone, how a round filled in together is saved), and
the answer to "Which player are you?" that the home page asks."""

from flask import Blueprint, abort, redirect, render_template, request, url_for
from flask_babel import gettext as _

from .. import queries, services
from ..forms.groups import (
    AutosaveForm,
    ButtonForm,
    CreateGroupForm,
    DeviceForm,
    PassphraseForm,
    SignInForm,
    TimeZoneForm,
)
from . import phone_choice
from .access import (
    client_address,
    device_label,
    safe_next,
    set_device_label,
    set_phone_player,
    signed_in,
    signed_in_group,
)
from .access import (
    sign_in as remember_group,
)
from .access import (
    sign_out as forget_group,
)
from .devices import known_devices
from .new_groups import (
    device_typed,
    group_form,
    group_name,
    may_create_group,
    refused_for_now,
    single_group,
    too_many,
)
from .once import changing
from .presenters.changes import describe_all
from .presenters.refusals import refusal

bp = Blueprint("groups", __name__)


@bp.route("/groups/new", methods=["GET", "POST"])
def new():
    if not may_create_group():
        abort(404)
    form = group_form(CreateGroupForm)
    error = None
    if form.validate_on_submit():
        try:
            group = services.create_group(group_name(form), form.passphrase.data,
                                          address=client_address())
        except services.TooManyNewGroups as full:
            error = _("The group was not created: %(why)s.", why=too_many("new groups", full))
            return refused_for_now(full, render_template(
                "groups/new.html", form=form, error=error, fixed_name=single_group()))
        except services.ServiceError as problem:
            error = refusal(problem)
        else:
            remember_group(group, device_typed(form))
            return redirect(url_for("invites.index"))  # get the others in
    return render_template("groups/new.html", form=form, error=error,
                           fixed_name=single_group())


@bp.route("/sign-in", methods=["GET", "POST"])
def sign_in():
    form = group_form(SignInForm, next=request.args.get("next", ""))
    error = None
    if form.validate_on_submit():
        group = services.group_for_sign_in(group_name(form), form.passphrase.data,
                                           address=client_address(), known=known_devices())
        if group is None:
            error = (_("That group name and passphrase don't match.")
                     if not single_group() else _("That passphrase is not right."))
        else:
            remember_group(group, device_typed(form))
            return redirect(safe_next(form.next.data) or url_for("home.index"))
    return render_template("groups/sign_in.html", form=form, error=error,
                           fixed_name=single_group(), may_create=may_create_group())


@bp.post("/sign-out")
def sign_out():
    if not ButtonForm().validate():
        abort(400)
    forget_group()
    return redirect(url_for("home.index"))


@bp.get("/group")
@signed_in
def settings():
    return render_settings(passphrase_changed=request.args.get("passphrase") == "changed",
                           timezone_changed=request.args.get("timezone") == "changed",
                           autosave_changed=request.args.get("autosave") == "changed")


def render_settings(passphrase_form=None, device_form=None, timezone_form=None,
                    passphrase_changed=False, timezone_changed=False, autosave_changed=False):
    group = signed_in_group()
    return render_template(
        "groups/settings.html", group=group,
        changes=describe_all(queries.group_events(group), currency=""),
        invites=queries.open_invites(group),
        passphrase_form=passphrase_form or PassphraseForm(formdata=None),
        device_form=device_form or DeviceForm(formdata=None, data={
            "device": phone_choice.shown_name(device_label())}),
        timezone_form=timezone_form or TimeZoneForm(formdata=None,
                                                    data={"timezone": group.timezone}),
        autosave_form=AutosaveForm(formdata=None, data={"autosave": group.autosave_rounds}),
        button_form=ButtonForm(), passphrase_changed=passphrase_changed,
        timezone_changed=timezone_changed, autosave_changed=autosave_changed)


@bp.post("/group/passphrase")
@signed_in
def change_passphrase():
    form = PassphraseForm()
    if form.validate():
        group = signed_in_group()
        try:
            services.change_passphrase(changing(), form.current.data, form.passphrase.data,
                                       address=client_address(), known=known_devices())
        except services.ServiceError as problem:
            form.current.errors.append(refusal(problem))
        else:
            remember_group(group, device_label())  # this phone stays signed in
            return redirect(url_for(".settings", passphrase="changed"))
    return render_settings(passphrase_form=form), 422


@bp.post("/group/device")
@signed_in
def rename_device():
    form = DeviceForm()
    if form.validate():
        set_device_label(phone_choice.kept_label(form.device.data, device_label()))
        return redirect(url_for(".settings"))
    return render_settings(device_form=form), 422


@bp.post("/group/phone")
@signed_in
def choose_phone():
    """ "Which player are you?", answered on the home page: names the phone
    and says whose it is."""
    group = signed_in_group()
    players = queries.known_players(group)
    answer, question = phone_choice.answer(players)
    if answer is None:
        return render_template("groups/phone.html", players=players, question=question), 422
    set_device_label(phone_choice.phone_name(answer, players))
    set_phone_player(answer.player_id if answer.new is None
                     else services.phone_player(changing(), answer.new).id)
    return redirect(url_for("home.index"))


@bp.post("/group/autosave")
@signed_in
def change_autosave():
    form = AutosaveForm()
    if not form.validate():
        abort(400)
    services.set_autosave_rounds(signed_in_group(), form.autosave.data)
    return redirect(url_for(".settings", autosave="changed", _anchor="autosave-title"))


@bp.post("/group/timezone")
@signed_in
def change_timezone():
    form = TimeZoneForm()
    if form.validate():
        try:
            services.set_timezone(changing(), form.timezone.data)
        except services.ServiceError as problem:
            form.timezone.errors.append(refusal(problem))
        else:
            return redirect(url_for(".settings", timezone="changed", _anchor="timezone-title"))
    form.timezone.data = signed_in_group().timezone  # a zone not on the list can't be shown back
    return render_settings(timezone_form=form), 422
