#!/usr/bin/env python3
"""Test support: validates recorded HTTP requests against an OpenAPI file with openapi-core, an
independent validator (server resolution, path, parameters, security, body), not our own checker.

Usage: validate_openapi_requests.py OPENAPI_JSON REQUESTS_NDJSON HOST_URL
  HOST_URL: scheme://host:port the requests were sent to (the recorded lines hold only the path).
Prints "ok N" or the first request openapi-core rejects, with its reason, and exits 1.
"""
import json
import sys

from openapi_core import OpenAPI
from openapi_core.testing import MockRequest

spec_path, log_path, host_url = sys.argv[1:4]
openapi = OpenAPI.from_file_path(spec_path)
requests = [json.loads(line) for line in open(log_path) if line.strip()]
for number, recorded in enumerate(requests, 1):
    headers = {name: value for name, value in recorded["headers"]}
    path, _, query = recorded["path"].partition("?")
    request = MockRequest(host_url, recorded["method"].lower(), path, headers=headers,
                          data=recorded["body"].encode(), content_type=headers.get("content-type", "").split(";")[0])
    result = openapi.unmarshal_request(request)
    if result.errors:
        error = result.errors[0]
        cause = getattr(error, "__cause__", None)
        sys.exit(f"request {number} ({recorded['method']} {recorded['path']}): {error}" + (f": {cause}" if cause else ""))
print(f"ok {len(requests)}")
