#!/usr/bin/python3
"""Test support: checks recorded requests against the lifecycle server's OpenAPI contract, with
Debian's python3-jsonschema (independent of hrbridge's own encoder).

Usage: check_contract.py CONTRACT_JSON REQUESTS_NDJSON BASE_PATH
Checks each request's path against the contract's paths, its header parameters, that the
Idempotency-Key and Activity-Sequence agree with the body, and the body against the Envelope
schema. Prints "ok N" or the first problem and exits 1.
"""
import json
import sys

import jsonschema

contract = json.load(open(sys.argv[1]))
requests = [json.loads(line) for line in open(sys.argv[2]) if line.strip()]
base = sys.argv[3]
schema = {"$ref": "#/components/schemas/Envelope", "components": contract["components"]}
validator = jsonschema.Draft7Validator(schema)


def fail(message):
    sys.exit(message)


for number, request in enumerate(requests, 1):
    path = request["path"]
    if not path.startswith(base):
        fail(f"request {number}: {path} outside {base}")
    parts = path[len(base):].split("/")
    if len(parts) != 4 or parts[1] != "activities":
        fail(f"request {number}: {path} does not match /activities/{{activity}}/{{event}}")
    operation = contract["paths"].get(f"/activities/{{activity}}/{parts[3]}", {}).get("post")
    if operation is None:
        fail(f"request {number}: no operation for {path}")
    headers = {name: value for name, value in request["headers"]}
    for reference in operation["parameters"]:
        parameter = contract["components"]["parameters"][reference["$ref"].split("/")[-1]]
        if parameter["in"] == "header" and parameter["name"].lower() not in headers:
            fail(f"request {number}: missing header {parameter['name']}")
    body = json.loads(request["body"])
    errors = sorted(validator.iter_errors(body), key=str)
    if errors:
        fail(f"request {number}: body breaks the contract: {errors[0].message} at {list(errors[0].path)}")
    if body["event"] != parts[3] or body["activity"] != parts[2]:
        fail(f"request {number}: path {path} disagrees with the body")
    if headers["idempotency-key"] != f"{body['activity']}:{body['sequence']}":
        fail(f"request {number}: Idempotency-Key {headers['idempotency-key']} is not activity:sequence")
    if int(headers["activity-sequence"]) != body["sequence"]:
        fail(f"request {number}: Activity-Sequence disagrees with the body")
print(f"ok {len(requests)}")
