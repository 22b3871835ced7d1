"""A compute module written with the platform's Python runtime SDK, unmodified, run through
`platform-emulator run-module` against a live emulator (real packages, real processes, real sockets).

What the installed foundry-compute-modules 0.34.0 does (read from its source, client/internal_query_client.py
and startup.py; docs/contracts.md §10):
- Environment: RUNTIME_HOST, RUNTIME_PORT, GET_JOB_URI, POST_RESULT_URI, POST_SCHEMA_URI,
  RESTART_NOTIFICATION_URI (of the four URIs only the *path* is kept), MODULE_AUTH_TOKEN (a *file path*; the
  token is read from it), CONNECTIONS_TO_OTHER_PODS_CA_PATH (CA file, required), MAX_CONCURRENT_TASKS (default 1).
  No *_V2 variable is read (V1 protocol only). DEFAULT_CA_PATH, CLIENT_ID/CLIENT_SECRET and
  FOUNDRY_SERVICE_DISCOVERY_V2 are read by its auth and sources helpers, not by the job loop.
- Every call is `https://{RUNTIME_HOST}:{RUNTIME_PORT}{path}` with `verify=<CA file>`; all carry the
  `Module-Auth-Token` header. Plain http is impossible.
- Start: POST schemas (JSON list, one per function; any status accepted, only connection errors retried), then
  POST the restart notification (no body): only 200 with a JSON array of job-id strings counts; anything else
  5 times raises and the module exits. Then it polls GET_JOB_URI for ever: 200 = a job
  (`computeModuleJobV1: {jobId, queryType, query}`), 204 = none; any other status is logged and the loop polls
  again at once (no back-off), so the emulator's long-poll hold is what keeps an idle module cheap.
- Jobs run in a process pool (default) of MAX_CONCURRENT_TASKS workers; each posts its own result:
  POST {POST_RESULT_URI path}/{jobId}, `Content-Type: application/octet-stream`. Only 204 is success; anything
  else is retried (5 attempts), then `{"error": ...}` is posted up to 3 times, then it raises.
- A function's exception is *not* an error at the wire: the result is `{"exception": "<message>: <traceback>"}`.
  An unknown query type answers `{"error": "Unknown query type"}`. A streaming function (`@function(streaming=True)`)
  posts a chunked body: each yielded item json-dumped, concatenated with no separator.
- The in-pod runtime on the emulator (src/services/compute-modules/pod-listener/) answers as above; run-module sets
  the variables (src/run-module.ts).
"""

from __future__ import annotations

import json
import re
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from conftest import MULTIPLEXER, PYTHON, MODULE_APP, RUNTIMES, wait_until

APP = "ri.foundry.main.deployed-app.python-adder"
RUNTIME = "rt-python"


@pytest.fixture(scope="module")
def module(emulator, start_module):
    module = start_module(RUNTIME, APP)
    token = emulator.token()
    # Ready once its schemas arrived: the SDK posts them first, then the restart notification, then polls.
    wait_until(lambda: schemas(emulator, token, APP), timeout=90, what="the module's schemas")
    return module


def schemas(emulator, token, app_rid):
    status, raw = emulator.request("GET", f"{MULTIPLEXER}/schemas?rid={app_rid}", token=token)
    return json.loads(raw) if status == 200 and json.loads(raw) else None


def execute(emulator, token, query_type, query, app_rid=APP):
    return emulator.request(
        "POST", f"{MULTIPLEXER}/compute-modules/jobs/execute", {"deployedAppRid": app_rid, "queryType": query_type, "query": query}, token=token
    )


def submit(emulator, token, query_type, query, app_rid=APP) -> str:
    job = emulator.json("POST", f"{MULTIPLEXER}/deployed-apps/jobs", {"deployedAppRid": app_rid, "queryType": query_type, "query": query}, token=token)
    return job["id"]


def finished_status(emulator, token, job_id):
    def look():
        status = emulator.json("GET", f"{MULTIPLEXER}/jobs/{job_id}/status", token=token)
        return status if status["type"] not in ("queued", "inProgress") else None

    return wait_until(look, timeout=60, what=f"job {job_id} to finish")


def result_posts(emulator, job_id) -> int:
    """Requests to the job's result route the server logged (one line per request at debug), on either port."""
    return len(emulator.output.matching(rf'"url":"[^"]*/results/{job_id}".*"msg":"incoming request"'))


def counted_result_posts(emulator, token, ids):
    """The result posts of each job, counted once the log has caught up past them: a later job's post is
    logged (this module runs one task at a time, so any retry of an earlier post would come before it)."""
    fence = submit(emulator, token, "add", {"a": 0, "b": 0})
    finished_status(emulator, token, fence)
    wait_until(lambda: result_posts(emulator, fence) >= 1, timeout=30, what="the fence job's result post in the log")
    return [result_posts(emulator, job_id) for job_id in ids]


def test_the_schemas_of_every_decorated_function_arrive(emulator, module):
    token = emulator.token()
    posted = schemas(emulator, token, APP)
    names = sorted(s["functionName"] for s in posted)
    assert names == ["add", "count", "crash_once", "echo", "fail"]
    add = next(s for s in posted if s["functionName"] == "add")
    assert [i["name"] for i in add["inputs"]] == ["a", "b"]
    assert add["output"]["single"]["dataType"]["type"] == "integer"
    # It reached the in-pod runtime over HTTPS, with the module's token.
    assert emulator.output.matching(rf'"url":"{RUNTIMES}/{RUNTIME}/schemas"')


def test_sync_execute_returns_the_exact_bytes_and_one_result_post(emulator, module):
    token = emulator.token()
    status, body = execute(emulator, token, "add", {"a": 2, "b": 3})
    assert (status, body) == (200, b"5")
    status, body = execute(emulator, token, "echo", {"text": "h\u00e9llo \"quoted\""})
    assert (status, body) == (200, json.dumps("h\u00e9llo \"quoted\"").encode())


def test_async_submit_then_result_returns_the_exact_bytes_posted_once(emulator, module):
    token = emulator.token()
    job_id = submit(emulator, token, "add", {"a": 40, "b": 2})
    assert finished_status(emulator, token, job_id)["type"] == "succeeded"
    status, body = emulator.request("GET", f"{MULTIPLEXER}/jobs/{job_id}/result", token=token)
    assert (status, body) == (200, b"42")
    assert counted_result_posts(emulator, token, [job_id]) == [1]
    inspected = emulator.json("GET", f"{RUNTIMES}/{RUNTIME}/jobs/{job_id}")
    assert inspected["job"]["handOuts"] == 1
    assert inspected["job"]["result"]["contentType"] == "application/octet-stream"


def test_each_job_gets_exactly_one_result_post(emulator, module):
    token = emulator.token()
    ids = [submit(emulator, token, "add", {"a": i, "b": i}) for i in range(5)]
    for job_id in ids:
        finished_status(emulator, token, job_id)
    assert counted_result_posts(emulator, token, ids) == [1] * 5
    # The SDK never saw a refusal: it logs "Failed to post result" on anything but 204.
    assert not module.output.matching(r"Failed to post result|Unable to post job result")


def test_an_exception_reaches_the_caller_as_the_sdk_reports_it(emulator, module):
    token = emulator.token()
    status, body = execute(emulator, token, "fail", {"message": "the widget is broken"})
    assert status == 200  # the SDK posts the failure as the job's result, not as an error
    reported = json.loads(body)
    assert list(reported) == ["exception"]
    assert reported["exception"].startswith("the widget is broken: Traceback (most recent call last):")
    assert "ValueError: the widget is broken" in reported["exception"]


def test_a_streaming_function_posts_its_items_concatenated(emulator, module):
    token = emulator.token()
    assert execute(emulator, token, "count", {"n": 4}) == (200, b"0123")
    assert execute(emulator, token, "count", {"n": 0}) == (200, b"")


def test_an_unknown_query_type_answers_as_the_sdk_does(emulator, module):
    token = emulator.token()
    assert execute(emulator, token, "no_such_function", {}) == (200, b'{"error": "Unknown query type"}')


def test_fifty_concurrent_executes_with_four_concurrent_tasks_are_all_correct(emulator, start_module):
    app = "ri.foundry.main.deployed-app.python-concurrent"
    start_module("rt-python-concurrent", app, env={"MAX_CONCURRENT_TASKS": "4"})
    token = emulator.token()
    wait_until(lambda: schemas(emulator, token, app), timeout=90, what="the concurrent module's schemas")

    def one(i):
        return execute(emulator, token, "add", {"a": i, "b": 1000 * i}, app_rid=app)

    with ThreadPoolExecutor(max_workers=50) as pool:
        answers = list(pool.map(one, range(50)))
    assert answers == [(200, str(1001 * i).encode()) for i in range(50)]


def test_a_module_killed_mid_job_gets_its_job_back_through_the_restart_notification(emulator, start_module):
    app = "ri.foundry.main.deployed-app.python-restart"
    runtime = "rt-python-restart"
    # The pod restarts the module once, as the platform restarts a crashed container; run-module (the pod) and
    # its runtime session stay, so only the module's restart notification can give the job back.
    module = start_module(runtime, app, command=["sh", "-c", f'"{PYTHON}" "{MODULE_APP}"; exec "{PYTHON}" "{MODULE_APP}"'])
    token = emulator.token()
    wait_until(lambda: schemas(emulator, token, app), timeout=90, what="the restarting module's schemas")
    marker = Path(tempfile.mkdtemp(prefix="pe-crash-")) / "crashed-once"

    job_id = submit(emulator, token, "crash_once", {"marker": str(marker)}, app_rid=app)
    assert finished_status(emulator, token, job_id)["type"] == "succeeded"
    assert marker.exists()  # the first run did die mid-job
    status, body = emulator.request("GET", f"{MULTIPLEXER}/jobs/{job_id}/result", token=token)
    assert (status, body) == (200, b'"answered after the restart"')
    inspected = emulator.json("GET", f"{RUNTIMES}/{runtime}/jobs/{job_id}")
    assert inspected["job"]["handOuts"] == 2
    # The restarted module's notification (answered 200 with the ids) put exactly this job back.
    requeued = emulator.output.matching(rf'"runtimeId":"{runtime}","requeued":1,"jobIds":\["{job_id}"\],.*restart notification')
    assert len(requeued) == 1
    assert len(emulator.output.matching(rf'"runtimeId":"{runtime}","requeued":0,')) == 1  # the first start's
    assert module.process.poll() is None  # the second run is still serving
