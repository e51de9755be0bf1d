"""The one lazy ``module:attribute`` loader (transted.loading) behind the registries."""

from __future__ import annotations

import pytest

from transted.loading import is_reference, load_reference
from transted.metrics.registry import METRICS, metric_class
from transted.pipeline.search.providers.base import ProviderContext
from transted.pipeline.search.providers.registry import BUILTIN_PROVIDERS, make_provider


def test_dotted_attribute_after_the_colon():
    from transted.pipeline.search.providers.offline import OfflineProvider

    assert load_reference("transted.pipeline.search.providers.offline:OfflineProvider.from_context") \
        == OfflineProvider.from_context


@pytest.mark.parametrize("name, expected", [
    ("a.b:C", True), ("a:C.d", True), ("ted", False), (":C", False), ("a.b:", False),
])
def test_is_reference(name, expected):
    assert is_reference(name) is expected


def test_errors_name_what_is_missing():
    with pytest.raises(ValueError, match="'module:attribute'.*'ted'"):
        load_reference("ted")
    with pytest.raises(ModuleNotFoundError, match="transted.no_such_module"):
        load_reference("transted.no_such_module:X")
    with pytest.raises(AttributeError, match="NoSuchClass"):
        load_reference("transted.loading:NoSuchClass")


def test_every_registry_entry_loads():
    for name, reference in METRICS.items():
        assert metric_class(name) is load_reference(reference)
    for name in BUILTIN_PROVIDERS:
        assert make_provider(name, ProviderContext()).name == name
