"""pytest plugin (entry point `sqslite`): one sqslite server per session, reset before each test.

Options, on the command line or in the ini file: `--sqslite-config` / `sqslite_config` (a
sqslite.toml or elasticmq.conf, relative to the rootdir), `--sqslite-clock` / `sqslite_clock`
(`system` or `manual`), `--sqslite-strict` / `sqslite_strict`, `--sqslite-delivery` /
`sqslite_delivery` (`exact` or `at-least-once`) and `--sqslite-delivery-seed` /
`sqslite_delivery_seed`.
"""

from __future__ import annotations

import pytest

from . import Server


def pytest_addoption(parser):
    group = parser.getgroup("sqslite")
    group.addoption("--sqslite-config", help="sqslite.toml or elasticmq.conf for the session server")
    group.addoption("--sqslite-clock", choices=("system", "manual"), help="the server's clock")
    group.addoption("--sqslite-strict", action="store_true", default=None,
                    help="SQS's 60-second guards (QueueDeletedRecently, PurgeQueueInProgress)")
    group.addoption("--sqslite-delivery", choices=("exact", "at-least-once"),
                    help="how standard queues deliver: at-least-once rehearses duplicates")
    group.addoption("--sqslite-delivery-seed", type=int, help="the seed of at-least-once delivery")
    parser.addini("sqslite_delivery", "exact or at-least-once")
    parser.addini("sqslite_delivery_seed", "the seed of at-least-once delivery")
    parser.addini("sqslite_config", "sqslite.toml or elasticmq.conf for the session server")
    parser.addini("sqslite_clock", "system or manual")
    parser.addini("sqslite_strict", "SQS's 60-second guards", type="bool", default=False)


def _option(config, name):
    value = config.getoption(f"--sqslite-{name}")
    return config.getini(f"sqslite_{name.replace('-', '_')}") if value is None else value


@pytest.fixture(scope="session")
def sqslite_server(pytestconfig):
    """The session's server (a `sqslite.Server`), started on first use, stopped at the end."""
    config = _option(pytestconfig, "config")
    if config:
        config = pytestconfig.rootpath / config
    seed = _option(pytestconfig, "delivery-seed")
    server = Server(config=config or None, clock=_option(pytestconfig, "clock") or None,
                    strict=_option(pytestconfig, "strict"),
                    delivery=_option(pytestconfig, "delivery") or None,
                    delivery_seed=int(seed) if seed not in (None, "") else None)
    with server:
        yield server


@pytest.fixture
def sqslite(sqslite_server):
    """The session's server, reset to its started state before this test."""
    sqslite_server.reset()
    return sqslite_server


@pytest.fixture
def sqslite_endpoint(sqslite):
    """The server's URL, for clients other than boto3 (state reset as for `sqslite`)."""
    return sqslite.endpoint


@pytest.fixture(scope="session")
def _sqslite_sqs_client(sqslite_server):
    return sqslite_server.client("sqs")


@pytest.fixture
def sqs_client(sqslite, _sqslite_sqs_client):
    """A boto3 SQS client for the server (state reset as for `sqslite`); one per session."""
    return _sqslite_sqs_client
