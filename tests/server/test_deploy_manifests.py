"""deploy/k8s/: every manifest is valid Kubernetes, and the recipe holds together.

kubernetes-validate checks each document against the OpenAPI schemas it bundles (offline),
strictly (an unknown field is an error), for the Kubernetes version named here. Then what
the recipe claims: both probes on the routes the app serves, a grace period above the
drain, the migrations Job, room-hashed sockets, and names that refer to each other.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import kubernetes_validate
import pytest
import yaml

from app.main import create_app
from app.settings import Settings

ROOT = Path(__file__).resolve().parents[2]
K8S = ROOT / "deploy" / "k8s"
# The Kubernetes version the manifests are checked against (bundled by kubernetes-validate).
KUBERNETES = "1.33.0"


def _documents() -> list[tuple[str, dict[str, Any]]]:
    found = []
    for path in sorted(K8S.glob("*.yaml")):
        for doc in yaml.safe_load_all(path.read_text()):
            if doc:
                found.append((path.name, doc))
    return found


DOCUMENTS = _documents()


def _one(kind: str, name: str | None = None) -> dict[str, Any]:
    matches = [
        d for _, d in DOCUMENTS if d["kind"] == kind and name in (None, d["metadata"]["name"])
    ]
    assert len(matches) == 1, f"one {kind} {name or ''}: {len(matches)}"
    return matches[0]


@pytest.mark.parametrize(
    "doc", [d for _, d in DOCUMENTS], ids=[f"{f}:{d['kind']}" for f, d in DOCUMENTS]
)
def test_each_manifest_is_valid_kubernetes(doc: dict[str, Any]) -> None:
    kubernetes_validate.validate(doc, KUBERNETES, strict=True)


def test_an_invalid_manifest_is_refused() -> None:
    """The check can fail: a misspelt field in the Deployment is an error."""
    broken = yaml.safe_load((K8S / "deployment.yaml").read_text())
    broken["spec"]["template"]["spec"]["containers"][0]["readinesProbe"] = {"httpGet": {}}
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(broken, KUBERNETES, strict=True)


def test_the_recipe_has_every_part() -> None:
    kinds = sorted(d["kind"] for _, d in DOCUMENTS)
    for kind in (
        "ConfigMap",
        "Deployment",
        "HorizontalPodAutoscaler",
        "Ingress",
        "Job",
        "PodDisruptionBudget",
        "Secret",
        "Service",
    ):
        assert kind in kinds, kind
    assert {d["metadata"].get("namespace", "coven") for _, d in DOCUMENTS} == {"coven"}


def test_workers_have_both_probes_on_routes_the_app_serves_and_time_to_drain() -> None:
    pod = _one("Deployment")["spec"]["template"]["spec"]
    container = pod["containers"][0]
    assert container["livenessProbe"]["httpGet"]["path"] == "/livez"
    assert container["readinessProbe"]["httpGet"]["path"] == "/readyz"
    assert {"/livez", "/readyz"} <= set(create_app(Settings()).openapi()["paths"])
    # The drain takes at most ~20 s after SIGTERM (app/drain.py); the preStop sleep comes first.
    pre_stop = int(container["lifecycle"]["preStop"]["exec"]["command"][-1])
    assert pod["terminationGracePeriodSeconds"] >= pre_stop + 25
    strategy = _one("Deployment")["spec"]["strategy"]["rollingUpdate"]
    assert strategy["maxUnavailable"] == 0


def test_the_job_migrates_with_the_workers_image_and_settings() -> None:
    job = _one("Job")["spec"]["template"]["spec"]
    worker = _one("Deployment")["spec"]["template"]["spec"]["containers"][0]
    assert job["containers"][0]["command"] == ["coven", "migrate"]
    assert job["containers"][0]["image"] == worker["image"]
    assert job["containers"][0]["envFrom"] == worker["envFrom"]


def test_sockets_are_routed_by_room_and_the_rest_spread() -> None:
    sockets = _one("Ingress", "coven-sockets")
    assert sockets["metadata"]["annotations"]["nginx.ingress.kubernetes.io/upstream-hash-by"]
    [path] = [p for rule in sockets["spec"]["rules"] for p in rule["http"]["paths"]]
    assert path["path"] == "/ws/rooms/" and path["pathType"] == "Prefix"
    rest = _one("Ingress", "coven")
    assert "nginx.ingress.kubernetes.io/upstream-hash-by" not in rest["metadata"].get(
        "annotations", {}
    )
    service = _one("Service")
    for ingress in (sockets, rest):
        for rule in ingress["spec"]["rules"]:
            for p in rule["http"]["paths"]:
                assert p["backend"]["service"]["name"] == service["metadata"]["name"]


def test_settings_are_real_and_the_secret_holds_placeholders_only() -> None:
    known = set(re.findall(r"COVEN_[A-Z_]+", (ROOT / "app" / "settings.py").read_text()))
    config = _one("ConfigMap")["data"]
    secret = _one("Secret")["stringData"]
    assert set(config) | set(secret) <= known, (set(config) | set(secret)) - known
    assert config["COVEN_MIGRATE_ON_START"] == "0"
    assert {"COVEN_DATABASE_URL", "COVEN_REDIS_URL"} <= set(secret)
    assert all("CHANGE-ME" in value for value in secret.values())
    refs = _one("Deployment")["spec"]["template"]["spec"]["containers"][0]["envFrom"]
    names = {next(iter(ref.values()))["name"] for ref in refs}
    assert names == {_one("ConfigMap")["metadata"]["name"], _one("Secret")["metadata"]["name"]}
    selector = _one("Deployment")["spec"]["selector"]["matchLabels"]
    for kind in ("Service", "PodDisruptionBudget"):
        doc = _one(kind)["spec"]
        assert (doc.get("selector", {}).get("matchLabels") or doc["selector"]) == selector
