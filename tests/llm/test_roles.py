"""Role resolution: one model for all roles, or each its own, with sensible fallbacks."""

from __future__ import annotations

import pytest

from papermind.config import EndpointSettings, LLMSettings, RoleSettings
from papermind.errors import ConfigError
from papermind.llm.roles import RoleSpec, known_roles, register_roles, resolve_role, role_chain
from papermind.workflows.review import panel  # registers the panel's roles


def test_nothing_configured_means_the_local_model_for_every_role() -> None:
    for role in known_roles():
        resolved = resolve_role(LLMSettings(), role, "tiny")
        assert (resolved.endpoint_name, resolved.model) == ("local", "tiny")
        assert resolved.endpoint.provider == "local"


def test_seed_temperatures_are_settings() -> None:
    settings = LLMSettings()
    assert resolve_role(settings, "devil").temperature == 0.8
    assert resolve_role(settings, "experiment_reviewer").temperature == 0.2
    assert resolve_role(settings, "something_new").temperature == settings.default_temperature
    changed = settings.model_copy(update={"role_temperatures": {"reviewer": 0.5}})
    assert resolve_role(changed, "methodology_reviewer").temperature == 0.5  # via parent


def test_chain_inherits_field_by_field() -> None:
    settings = LLMSettings(
        endpoints={"small": EndpointSettings(model="s"), "big": EndpointSettings(model="b")},
        roles={"default": RoleSettings(endpoint="small", max_tokens=1000),
               "reviewer": RoleSettings(endpoint="big", temperature=0.1),
               "devil": RoleSettings(temperature=0.9, model="b-special")})
    assert role_chain("devil") == ["devil", "reviewer", "default"]
    devil = resolve_role(settings, "devil")
    assert (devil.endpoint_name, devil.model, devil.temperature, devil.max_tokens) == (
        "big", "b-special", 0.9, 1000)
    meta = resolve_role(settings, "meta")
    assert (meta.endpoint_name, meta.model, meta.temperature) == ("big", "b", 0.1)
    reader = resolve_role(settings, "reader")
    assert (reader.endpoint_name, reader.model, reader.temperature) == ("small", "s", 0.2)


def test_single_unnamed_endpoint_serves_all_roles_and_bad_names_fail() -> None:
    settings = LLMSettings(endpoints={"vllm": EndpointSettings(model="m")})
    assert resolve_role(settings, "planner").endpoint_name == "vllm"
    broken = settings.model_copy(update={"roles": {"devil": RoleSettings(endpoint="nope")}})
    with pytest.raises(ConfigError, match="nope"):
        resolve_role(broken, "devil")


def test_env_configuration(monkeypatch: pytest.MonkeyPatch) -> None:
    from papermind.config import Settings

    monkeypatch.setenv("PAPERMIND_LLM__ENDPOINTS__DEFAULT__BASE_URL", "http://127.0.0.1:9/v1")
    monkeypatch.setenv("PAPERMIND_LLM__ENDPOINTS__DEFAULT__MODEL", "qwen")
    monkeypatch.setenv("PAPERMIND_LLM__ROLES__DEVIL__TEMPERATURE", "1.1")
    settings = Settings().llm
    devil = resolve_role(settings, "devil")
    assert (devil.endpoint_name, devil.model, devil.temperature) == ("default", "qwen", 1.1)


def test_the_panel_registers_its_roles_and_conflicts_fail() -> None:
    assert {a.role for a in panel.ACTORS} <= set(known_roles())
    assert role_chain("reproducibility_reviewer") == ["reproducibility_reviewer", "reviewer",
                                                      "default"]
    register_roles(RoleSpec("devil", "reviewer", 0.8))  # the same row again: harmless
    with pytest.raises(ValueError, match="already registered"):
        register_roles(RoleSpec("devil", "reader", 0.1))
    with pytest.raises(ValueError, match="unknown role"):
        register_roles(RoleSpec("orphan", "no_such_parent", 0.1))


def test_role_temperatures_override_seeds_along_the_chain() -> None:
    settings = LLMSettings(role_temperatures={"devil": 1.0})
    assert resolve_role(settings, "devil").temperature == 1.0
    assert resolve_role(settings, "methodology_reviewer").temperature == 0.3  # its seed stays
