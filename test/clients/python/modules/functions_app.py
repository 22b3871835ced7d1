"""A compute module in functions mode written only with the platform's Python runtime SDK (foundry-compute-modules):
typed parameters (dates, lists, sets, maps, optionals), a struct output, a function that raises. The functions
tests run it through `platform-emulator run-module` and call it as an ontology query."""

import datetime
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
class Summary:
    title: str
    day_after: datetime.date
    total: float
    distinct: typing.List[str]
    note: typing.Optional[str]


@dataclass
class SummaryInput:
    title: str
    day: datetime.date
    amounts: typing.List[float]
    labels: typing.Set[str]
    weights: typing.Dict[str, int]
    note: typing.Optional[str] = None


@function
def summarize(context, event: SummaryInput) -> Summary:
    total = sum(event.amounts) + sum(event.weights.values())
    return Summary(
        title=event.title.upper(),
        day_after=event.day + datetime.timedelta(days=1),
        total=total,
        distinct=sorted(event.labels),
        note=event.note,
    )


@dataclass
class CountInput:
    words: typing.List[str]


@function
def count_words(context, event: CountInput) -> typing.Dict[str, int]:
    counts: typing.Dict[str, int] = {}
    for word in event.words:
        counts[word] = counts.get(word, 0) + 1
    return counts


@dataclass
class FailInput:
    message: str


@function
def fail(context, event: FailInput) -> str:
    raise ValueError(event.message)
