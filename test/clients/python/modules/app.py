"""A compute module written only with the platform's Python runtime SDK (foundry-compute-modules), as a user
writes one: decorated functions, nothing emulator-specific. The conformance tests run it through
`platform-emulator run-module`; the bench runs it too."""

import os
import signal
import typing
from dataclasses import dataclass

from compute_modules.annotations import function


@dataclass
class AddInput:
    a: int
    b: int


@function
def add(context, event: AddInput) -> int:
    return event.a + event.b


@dataclass
class EchoInput:
    text: str


@function
def echo(context, event: EchoInput) -> str:
    return event.text


@dataclass
class FailInput:
    message: str


@function
def fail(context, event: FailInput) -> str:
    raise ValueError(event.message)


@dataclass
class CountInput:
    n: int


@function(streaming=True)
def count(context, event: CountInput) -> typing.Iterable[int]:
    for i in range(event.n):
        yield i


@dataclass
class CrashInput:
    marker: str


@function
def crash_once(context, event: CrashInput) -> str:
    """Kills the whole module mid-job the first time (the marker file does not exist yet); answers after."""
    if not os.path.exists(event.marker):
        with open(event.marker, "w", encoding="utf-8"):
            pass
        # The SDK runs a job in a worker process of its pool: the module's main process is the parent.
        os.kill(os.getppid(), signal.SIGKILL)
        os._exit(1)
    return "answered after the restart"
