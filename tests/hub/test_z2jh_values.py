"""deploy/z2jh/config.yaml is valid for the Zero to JupyterHub chart, and sized from the measurements.

No cluster is reachable here, so this checks what Helm would check: the chart's default
values with ours laid over them (maps merged key by key) against the chart's JSON schema
(tests/hub/z2jh-chart/values.schema.yaml, a copy of the chart's, without its documentation keys, as the
chart ships it).
"""
import copy
import sys
from pathlib import Path

import jsonschema
import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
CHART = Path(__file__).resolve().parent / "z2jh-chart"
CONFIG = ROOT / "deploy" / "z2jh" / "config.yaml"
sys.path.insert(0, str(ROOT / "deploy"))
import sizing  # noqa: E402


def merged(defaults, ours):
    """Helm's merge: maps merged key by key, everything else replaced by ours."""
    out = copy.deepcopy(defaults)
    for key, value in ours.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = merged(out[key], value)
        else:
            out[key] = value
    return out


def without_descriptions(schema):
    """What the chart's generate-json-schema.py ships: the schema less its `description` keys."""
    schema = {k: v for k, v in schema.items() if k != "description"}
    if isinstance(schema.get("properties"), dict):
        schema["properties"] = {k: without_descriptions(v) if isinstance(v, dict) else v
                                for k, v in schema["properties"].items()}
    return schema


@pytest.fixture(scope="module")
def chart():
    if not (CHART / "values.schema.yaml").exists():
        pytest.fail(f"the chart's schema is missing: {CHART}/values.schema.yaml", pytrace=False)
    schema = without_descriptions(yaml.safe_load((CHART / "values.schema.yaml").read_text()))
    return schema, yaml.safe_load((CHART / "values.yaml").read_text())


@pytest.fixture(scope="module")
def ours():
    return yaml.safe_load(CONFIG.read_text())


def test_our_values_pass_the_charts_schema(chart, ours):
    schema, defaults = chart
    jsonschema.validate(merged(defaults, ours), schema, cls=jsonschema.Draft7Validator)


def test_the_schema_check_can_fail(chart, ours):
    schema, defaults = chart
    broken = copy.deepcopy(ours)
    broken["singleuser"]["memory"]["limmit"] = "1G"  # a typo the chart must refuse
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(merged(defaults, broken), schema, cls=jsonschema.Draft7Validator)
    broken = copy.deepcopy(ours)
    broken["cull"]["timeout"] = "an hour"
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(merged(defaults, broken), schema, cls=jsonschema.Draft7Validator)


def test_memory_and_cpu_come_from_the_measurements(ours):
    expected = sizing.kubernetes_resources(sizing.load())
    assert ours["singleuser"]["memory"] == expected["memory"], "rerun `python deploy/sizing.py` and copy its figures"
    assert ours["singleuser"]["cpu"] == expected["cpu"]


def test_idle_servers_are_culled_and_the_exchange_is_mounted(ours):
    assert ours["cull"]["enabled"] is True and ours["cull"]["timeout"] <= 3600
    mounts = {m["mountPath"] for m in ours["singleuser"]["storage"]["extraVolumeMounts"]}
    assert ours["singleuser"]["extraEnv"]["PADDLECOURSE_EXCHANGE"] in mounts


def test_the_image_has_what_the_hub_needs():
    """The image is built from binder/: it must carry jupyterhub-singleuser, nbgitpuller and the role folders."""
    pins = yaml.safe_load((ROOT / "binder" / "environment.yml").read_text())["dependencies"][-1]["pip"]
    names = {p.split("==")[0] for p in pins}
    assert {"jupyterhub", "nbgitpuller", "nbgrader"} <= names
    assert "deploy/jupyter" in (ROOT / "binder" / "postBuild").read_text()
    for role in ("student", "instructor"):
        assert (ROOT / "deploy" / "jupyter" / role / "nbgrader_config.py").exists()


def test_the_guides_sizing_tables_are_the_measured_ones():
    for language, path in sizing.GUIDES.items():
        guide = path.read_text()
        for name, generated in sizing.sections(sizing.load(), language).items():
            assert sizing.block(name, generated) in guide, f"run `python deploy/sizing.py --write` ({path.name}: {name})"


def test_the_tljh_rule():
    """The Littlest JupyterHub's estimate, on round numbers: 60 % at once, 128 MB and 2 GB overheads, +20 % CPU."""
    one = {"memory_limit_mb": 1024, "cpu_cores": 0.5, "disk_mb": 512}
    assert sizing.class_size(100, one) == {"learners": 100, "concurrent": 60, "ram_gb": 60.1, "cpus": 36.0,
                                           "disk_gb": 52.0}


def test_the_one_server_hub_announces_the_same_memory_limit():
    """The one-server hub asks deploy/sizing.py, as the Kubernetes values are checked against it above."""
    config = (ROOT / "deploy" / "jupyterhub_config.py").read_text()
    assert 'env("PADDLECOURSE_HUB_MEM_LIMIT") or _measured["memory"]["limit"]' in config
    assert "896" not in config, "a figure copied by hand goes stale when the measurements move"
