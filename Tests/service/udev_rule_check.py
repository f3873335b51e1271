"""Strict check of hrbridge's udev rules file, for systems whose udev has no `udevadm verify`
(it arrived in systemd 254; Debian 12 ships 252, whose parser accepts a missing comma or `TAG==`).

1. Syntax: every rule is `KEY[{attr}]OP"value"` pairs separated by commas; each key is one udev
   knows, with an operator that key allows (match keys ==/!=, assignment keys =/+=/-=/:=).
2. Meaning: the rule is evaluated against the properties real Bluetooth devices have (an adapter
   is DEVTYPE "host" named hciN; its connections are DEVTYPE "link" named hciN:HANDLE) and must make
   exactly the adapters, on add and change, want hrbridge.service with the systemd tag.

Usage: /usr/bin/python3 udev_rule_check.py RULES_FILE   (exit 1 and `file:line: reason` on failure)
"""
import fnmatch
import re
import sys

MATCH_ONLY = {"ACTION", "DEVPATH", "KERNEL", "KERNELS", "SUBSYSTEM", "SUBSYSTEMS", "DRIVER", "DRIVERS",
              "ATTRS", "TAGS", "CONST", "TEST", "PROGRAM", "RESULT"}
ASSIGN_ONLY = {"OWNER", "GROUP", "MODE", "RUN", "LABEL", "GOTO", "IMPORT", "OPTIONS", "SECLABEL"}
EITHER = {"ENV", "TAG", "NAME", "SYMLINK", "ATTR", "SYSCTL"}
WITH_ATTRIBUTE = {"ENV", "ATTR", "ATTRS", "SYSCTL", "CONST", "TEST", "IMPORT", "SECLABEL", "RUN"}
MATCH_OPERATORS = {"==", "!="}
ASSIGN_OPERATORS = {"=", "+=", "-=", ":="}

PAIR = re.compile(r'([A-Z]+)(?:\{([^}]*)\})?(==|!=|\+=|-=|:=|=)"((?:[^"\\]|\\.)*)"')

# (description, properties, should start hrbridge.service)
DEVICES = [
    ("adapter hci0 added", {"ACTION": "add", "SUBSYSTEM": "bluetooth", "KERNEL": "hci0", "DEVTYPE": "host"}, True),
    ("adapter re-indexed as hci2", {"ACTION": "add", "SUBSYSTEM": "bluetooth", "KERNEL": "hci2", "DEVTYPE": "host"}, True),
    ("adapter changed (rfkill, power)", {"ACTION": "change", "SUBSYSTEM": "bluetooth", "KERNEL": "hci0", "DEVTYPE": "host"}, True),
    ("adapter removed", {"ACTION": "remove", "SUBSYSTEM": "bluetooth", "KERNEL": "hci0", "DEVTYPE": "host"}, False),
    ("LE link to a strap", {"ACTION": "add", "SUBSYSTEM": "bluetooth", "KERNEL": "hci0:3585", "DEVTYPE": "link"}, False),
    ("USB interface of the dongle", {"ACTION": "add", "SUBSYSTEM": "usb", "KERNEL": "1-1:1.0", "DEVTYPE": "usb_interface"}, False),
    ("rfkill switch", {"ACTION": "add", "SUBSYSTEM": "rfkill", "KERNEL": "rfkill0"}, False),
]


def logical_lines(path):
    """(line number, text) of each rule, joining backslash continuations."""
    with open(path, encoding="utf-8") as handle:
        pending, start = "", 0
        for number, raw in enumerate(handle, 1):
            line = raw.rstrip("\n")
            if not pending:
                start = number
                if not line.strip() or line.lstrip().startswith("#"):
                    continue
            if line.endswith("\\"):
                pending += line[:-1]
                continue
            yield start, pending + line
            pending = ""
        if pending:
            yield start, pending


def parse_rule(text):
    """The rule's (key, attribute, operator, value) pairs, or raises ValueError with the reason."""
    pairs, position = [], 0
    text = text.strip()
    while True:
        found = PAIR.match(text, position)
        if not found:
            raise ValueError(f"cannot read a KEY==\"value\" pair at column {position + 1}: {text[position:position + 30]!r}")
        key, attribute, operator, value = found.groups()
        check_pair(key, attribute, operator)
        pairs.append((key, attribute, operator, value))
        position = found.end()
        if position == len(text):
            return pairs
        separator = re.compile(r",\s*").match(text, position)
        if not separator or separator.end() == len(text):
            raise ValueError(f"expected ', ' and another pair at column {position + 1}")
        position = separator.end()


def check_pair(key, attribute, operator):
    if key not in MATCH_ONLY | ASSIGN_ONLY | EITHER:
        raise ValueError(f"unknown key {key}")
    if (attribute is not None) != (key in WITH_ATTRIBUTE) and key not in {"RUN", "IMPORT"}:
        raise ValueError(f"{key} {'needs' if attribute is None else 'takes no'} {{attribute}}")
    if key in MATCH_ONLY and operator not in MATCH_OPERATORS:
        raise ValueError(f"{key} can only be matched (== or !=), not assigned with {operator}")
    if key in ASSIGN_ONLY and operator not in ASSIGN_OPERATORS:
        raise ValueError(f"{key} can only be assigned, not matched with {operator}")


def matches(pattern, value):
    return any(fnmatch.fnmatchcase(value or "", alternative) for alternative in pattern.split("|"))


def apply_rules(rules, device):
    """What udev would record for the device: its tags and its SYSTEMD_WANTS words."""
    tags, wants = set(), []
    for _, pairs in rules:
        conditions = [p for p in pairs if p[2] in MATCH_OPERATORS]
        actions = [p for p in pairs if p[2] in ASSIGN_OPERATORS]
        def holds(pair):
            key, attribute, operator, value = pair
            actual = device.get(attribute) if key == "ENV" else device.get(key)
            return matches(value, actual) == (operator == "==")
        if not all(holds(pair) for pair in conditions):
            continue
        for key, attribute, operator, value in actions:
            if key == "TAG":
                tags = {value} if operator in {"=", ":="} else tags | {value}
            elif key == "ENV" and attribute == "SYSTEMD_WANTS":
                wants = value.split() if operator in {"=", ":="} else wants + value.split()
    return tags, wants


def main(path):
    failures, rules = [], []
    for number, text in logical_lines(path):
        try:
            rules.append((number, parse_rule(text)))
        except ValueError as error:
            failures.append(f"{path}:{number}: {error}")
    if not rules and not failures:
        failures.append(f"{path}: no rules")
    if not failures:
        for description, device, wanted in DEVICES:
            tags, wants = apply_rules(rules, device)
            started = "systemd" in tags and "hrbridge.service" in wants
            if started != wanted:
                failures.append(f"{path}: {description} ({device}): expected "
                                f"{'to' if wanted else 'not to'} want hrbridge.service, got tags {sorted(tags)} wants {wants}")
    for failure in failures:
        print(failure, file=sys.stderr)
    if failures:
        return 1
    print(f"{path}: {len(rules)} rule(s) well-formed; {len(DEVICES)} device cases behave")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
