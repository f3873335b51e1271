#!/usr/bin/env python3
"""Test support: validates recorded HTTP exchanges (request and the answer it got) against an
OpenAPI file with openapi-core, an independent validator: the path and method, parameters,
security, request body, and the response's status, headers and body for that operation.

Usage: validate_openapi_exchanges.py OPENAPI_JSON EXCHANGES_NDJSON HOST_URL
  Each line: {"method", "path", "requestHeaders": [[name, value]], "requestBody",
              "status", "responseHeaders": [[name, value]], "responseBody"}.
Prints "ok N" or the first exchange openapi-core rejects, with its reason, and exits 1.
"""
import json
import sys

from openapi_core import OpenAPI
from openapi_core.testing import MockRequest, MockResponse

spec_path, log_path, host_url = sys.argv[1:4]
openapi = OpenAPI.from_file_path(spec_path)
exchanges = [json.loads(line) for line in open(log_path) if line.strip()]
for number, recorded in enumerate(exchanges, 1):
    request_headers = {name.lower(): value for name, value in recorded["requestHeaders"]}
    response_headers = {name: value for name, value in recorded["responseHeaders"]}
    path, _, _ = recorded["path"].partition("?")
    request = MockRequest(host_url, recorded["method"].lower(), path, headers=request_headers,
                          data=recorded["requestBody"].encode(),
                          content_type=request_headers.get("content-type", "").split(";")[0])
    response = MockResponse(recorded["responseBody"].encode(), status_code=recorded["status"], headers=response_headers,
                            content_type=next((v for n, v in response_headers.items() if n.lower() == "content-type"), "").split(";")[0])
    where = f"exchange {number} ({recorded['method']} {recorded['path']} -> {recorded['status']})"
    # A request the server refused (401, 404, 415, ...) breaks the request's schema on purpose:
    # only what it answered is checked then; an accepted request must fit the contract too.
    if recorded["status"] < 400:
        result = openapi.unmarshal_request(request)
        if result.errors:
            error = result.errors[0]
            sys.exit(f"{where}: request: {error}: {getattr(error, '__cause__', '') or ''}")
    result = openapi.unmarshal_response(request, response)
    if result.errors:
        error = result.errors[0]
        sys.exit(f"{where}: response: {error}: {getattr(error, '__cause__', '') or ''}")
print(f"ok {len(exchanges)}")
