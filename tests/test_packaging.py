"""The Docker route as far as it can be checked without a container engine: the pinned
dependencies still satisfy pyproject, the README's ``docker run --env-file .env`` keeps the
image's settings, every file the Dockerfile copies is in the build context, and the image's
HEALTHCHECK command works against the bot's real HTTP server."""

from __future__ import annotations

import asyncio
import json
import re
import socket
import sys
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from bot.config import config_from_env
from bot.serving.metrics import Metrics
from bot.serving.webserver import WebServer, build_web_app

ROOT = Path(__file__).parents[1]
DOCKERFILE = (ROOT / "Dockerfile").read_text(encoding="utf-8")


def pins() -> dict[str, str]:
    lines = (ROOT / "requirements.txt").read_text(encoding="utf-8").splitlines()
    found: dict[str, str] = {}
    for line in lines:
        if line.strip() and not line.startswith("#"):
            name, version = line.split("==")
            found[canonicalize_name(name)] = version
    return found


def test_every_dependency_is_pinned_within_its_range() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    pinned = pins()
    for text in project["dependencies"]:
        requirement = Requirement(text)
        version = pinned.get(canonicalize_name(requirement.name))
        assert version is not None, f"{requirement.name} is not pinned in requirements.txt"
        assert requirement.specifier.contains(version), f"{requirement.name}=={version}"


def image_environment() -> dict[str, str]:
    """The ENV the Dockerfile's final stage sets."""
    final_stage = DOCKERFILE.split("\nFROM ")[-1]
    block = re.search(r"^ENV ((?:.*\\\n)*.*)$", final_stage, re.MULTILINE)
    assert block is not None
    pairs = re.findall(r"(\w+)=(\S+)", block[1])
    return dict(pairs)


def env_file(path: Path) -> dict[str, str]:
    """What ``docker run --env-file`` passes: KEY=VALUE lines as written, comments skipped."""
    found: dict[str, str] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            key, _, value = line.partition("=")
            found[key.strip()] = value
    return found


def test_the_example_settings_keep_the_images_database_and_port() -> None:
    image = image_environment()
    assert image["DATABASE_PATH"] == "/data/dominoes.sqlite3" and image["HTTP_PORT"] == "8080"
    container = image | env_file(ROOT / ".env.example")
    container["TELEGRAM_BOT_TOKEN"] = "123456789:AAE" + "x" * 32  # what the operator fills in
    assert config_from_env(container).database_path == Path("/data/dominoes.sqlite3")
    assert container["HTTP_PORT"] == "8080"


def test_the_build_context_holds_what_the_dockerfile_copies() -> None:
    ignore = (ROOT / ".dockerignore").read_text(encoding="utf-8").splitlines()
    kept = {line[1:].rstrip("/") for line in ignore if line.startswith("!")}
    copied = {
        source.rstrip("/")
        for line in DOCKERFILE.splitlines()
        if line.startswith("COPY ") and "--from=" not in line
        for source in line.split()[1:-1]
    }
    assert copied == kept
    assert "*" in ignore  # everything else, .env with its token first, stays out
    assert "USER 10001:10001" in DOCKERFILE and "chown 10001:10001 /data" in DOCKERFILE


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


async def run_healthcheck(port: int) -> int:
    match = re.search(r"^\s*CMD (\[.*\])$", DOCKERFILE.split("HEALTHCHECK", 1)[1], re.MULTILINE)
    assert match is not None
    command = json.loads(match[1])
    assert command[0] == "python"
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        *command[1:],
        env={"HTTP_PORT": str(port)},
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.DEVNULL,
    )
    return await asyncio.wait_for(process.wait(), 30)


async def test_the_healthcheck_passes_while_the_bot_serves_and_fails_when_it_does_not() -> None:
    server = WebServer(build_web_app(Metrics(), {}), "127.0.0.1", 0)
    await server.start()
    try:
        assert await run_healthcheck(server.port) == 0
    finally:
        await server.stop()
    assert await run_healthcheck(free_port()) != 0


def block(text: str, start: str) -> str:
    """The lines of a YAML block: the one that is ``start``, then those indented deeper."""
    lines = text.splitlines()
    first = lines.index(start)
    depth = len(start) - len(start.lstrip())
    rest = []
    for line in lines[first + 1:]:
        if line.strip() and len(line) - len(line.lstrip()) <= depth:
            break
        rest.append(line)
    return "\n".join([start, *rest])


def test_compose_keeps_a_bot_with_bad_settings_waiting_rather_than_restarting_it() -> None:
    """"restart: unless-stopped" restarts whatever exits, whatever its code: a bot whose token
    is missing or rejected (exit 2) was started again and again. Every bot service of the
    compose files sets ON_CONFIG_ERROR=wait (bot.cli.held); the image does not (a bare
    docker run exits 2, as before)."""
    single = (ROOT / "compose.yaml").read_text(encoding="utf-8")
    bot = block(single, "  bot:")
    assert "restart: unless-stopped" in bot
    assert '      ON_CONFIG_ERROR: "wait"' in block(bot, "    environment:")
    fleet = (ROOT / "compose.fleet.yaml").read_text(encoding="utf-8")
    assert '  ON_CONFIG_ERROR: "wait"' in block(fleet, "x-fleet-env: &fleet-env")
    services = block(fleet, "services:")
    # each bot service (the receivers, the worker) merges the fleet's environment
    bots = re.findall(r"^  ([\w-]+):(?: &\w+)?\n    <<: \*bot$", services, re.M)
    assert bots == ["receiver-1", "worker"]
    for name in bots:
        own = block(services, next(line for line in services.splitlines()
                                   if line.startswith(f"  {name}:")))
        assert "      <<: *fleet-env" in block(own, "    environment:"), name
    assert "  receiver-2: *receiver" in services
    assert "ON_CONFIG_ERROR" not in DOCKERFILE


def test_compose_caps_every_services_log() -> None:
    """Docker's json-file driver keeps a container's log for ever: each service of the
    compose files keeps at most 3 files of 10 MB (docs/OPERATIONS.md, "Logs")."""
    single = (ROOT / "compose.yaml").read_text(encoding="utf-8")
    assert '        max-size: "10m"\n        max-file: "3"' in block(
        block(single, "  bot:"), "    logging:")
    fleet = (ROOT / "compose.fleet.yaml").read_text(encoding="utf-8")
    assert '    max-size: "10m"\n    max-file: "3"' in block(fleet, "x-logging: &logging")
    assert "  logging: *logging" in block(fleet, "x-bot: &bot")
    services = block(fleet, "services:")
    names = re.findall(r"^  ([\w-]+):", services, re.M)
    assert len(names) == 5
    for name in names:
        own = block(services, next(line for line in services.splitlines()
                                   if line.startswith(f"  {name}:")))
        assert ("    logging: *logging" in own or "    <<: *bot" in own
                or own.rstrip().endswith(": *receiver")), name
    operations = (ROOT / "docs" / "OPERATIONS.md").read_text(encoding="utf-8")
    assert "--log-opt max-size=10m --log-opt max-file=3" in operations
