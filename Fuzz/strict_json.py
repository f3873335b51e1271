#!/usr/bin/env python3
"""A second, independent strict JSON reader for Tests/FuzzTests/JSONAgreementTests.swift.

Python's json module held to RFC 8259, and to hrbridge's reader where RFC 8259 leaves the choice
to the implementation. Where Python's json strays from the RFC or differs in such a choice:
- NaN, Infinity, -Infinity: Python accepts them; RFC 8259 has no such literals. Refused here.
- Input encoding: json.loads(bytes) also guesses UTF-16 and UTF-32; RFC 8259 (section 8.1) says
  UTF-8. Decoded here as strict UTF-8 (which refuses encoded surrogates and overlong forms).
- Lone surrogate escapes ("\\ud800"): the RFC's grammar allows them (section 8.2: behaviour
  unpredictable); Python keeps them. hrbridge refuses them, as a Swift String cannot hold one.
- Duplicate keys: the RFC allows them (names SHOULD be unique; section 4); Python keeps the last.
  hrbridge refuses them (a config file with two "straps" is a mistake), by code points.
- Nesting: the RFC lets an implementation limit it (section 9); hrbridge allows 64 levels, Python
  about 1000 (RecursionError). Deeper than 64 is refused here.
- Byte-order mark: the RFC lets a parser ignore one (section 8.1); both refuse it.
- Numbers: kept as written (parse_int/parse_float), as hrbridge keeps them, so a 5000-digit
  integer is not refused by Python's int-length limit and no value is rounded.
Pure Python's fallback scanner (used only without the C accelerator) took "\\u+041"; the C
scanner, which CPython uses, does not.

For each file named on the command line prints "reject" or "accept " and a canonical form of the
value: n, t, f, #number, s<hex of the UTF-8 bytes>, [a,b], {key:value,...} in member order.
"""
import json
import sys

MAXIMUM_DEPTH = 64


class Refused(Exception):
    pass


class Number(str):
    pass


class Members(list):
    pass


def refuse_constant(name):
    raise Refused(name)


def members(pairs):
    keys = [key for key, _ in pairs]
    if len(set(keys)) != len(keys):
        raise Refused("duplicate key")
    return Members(pairs)


def canonical(value, depth=0):
    if value is None:
        return "n"
    if value is True:
        return "t"
    if value is False:
        return "f"
    if isinstance(value, Number):
        return "#" + value
    if isinstance(value, str):
        try:
            return "s" + value.encode("utf-8").hex()
        except UnicodeEncodeError:
            raise Refused("lone surrogate")
    if depth + 1 > MAXIMUM_DEPTH:
        raise Refused("too deep")
    if not isinstance(value, Members):
        return "[" + ",".join(canonical(item, depth + 1) for item in value) + "]"
    return "{" + ",".join(canonical(key) + ":" + canonical(item, depth + 1) for key, item in value) + "}"


def read(path):
    with open(path, "rb") as file:
        data = file.read()
    try:
        text = data.decode("utf-8")
        value = json.loads(text, parse_constant=refuse_constant, object_pairs_hook=members,
                           parse_int=Number, parse_float=Number)
        return "accept " + canonical(value)
    except (Refused, ValueError, RecursionError):
        return "reject"


for path in sys.argv[1:]:
    print(read(path))
