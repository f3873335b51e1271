#!/usr/bin/env bash
# Puts udev/io.hrbridge.Bridge1.conf in front of a real dbus-daemon (a private bus with the system
# bus's default policy) and checks who may own and call io.hrbridge.Bridge1, by connecting as
# different users. Needs root (to switch users with setpriv) and python3-dbusmock (the stand-in owner).
#
# The policy names the user and group "hrbridge", which exist only where hrbridge is installed, and
# dbus-daemon resolves names when it loads the file; so the copy under test names existing accounts
# instead: service user hrbridge -> nobody, operators' group hrbridge -> users.
# Usage: Tests/service/dbus_policy_check.sh POLICY_FILE   (exit 1 with the failed checks listed)
set -euo pipefail
policy="$(realpath "$1")"

work="$(mktemp -d)"
chmod 0755 "$work"
daemon_pid=""
owner_pid=""
cleanup() {
  [ -n "$owner_pid" ] && kill "$owner_pid" 2>/dev/null || true
  [ -n "$daemon_pid" ] && kill "$daemon_pid" 2>/dev/null || true
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

sed -e 's/user="hrbridge"/user="nobody"/g' -e 's/group="hrbridge"/group="users"/g' "$policy" > "$work/policy.conf"
grep -q 'user="nobody"' "$work/policy.conf" || { echo "dbus policy: no <policy user=\"hrbridge\"> found" >&2; exit 1; }

# The system bus's own default policy (from dbus's system.conf): deny owning and method calls.
cat > "$work/bus.conf" <<EOF
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-BUS Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>system</type>
  <listen>unix:path=$work/bus</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow user="*"/>
    <deny own="*"/>
    <deny send_type="method_call"/>
    <allow send_type="signal"/>
    <allow send_requested_reply="true" send_type="method_return"/>
    <allow send_requested_reply="true" send_type="error"/>
    <allow receive_type="method_call"/>
    <allow receive_type="method_return"/>
    <allow receive_type="error"/>
    <allow receive_type="signal"/>
    <allow send_destination="org.freedesktop.DBus" send_interface="org.freedesktop.DBus"/>
    <allow send_destination="org.freedesktop.DBus" send_interface="org.freedesktop.DBus.Introspectable"/>
  </policy>
  <include>$work/policy.conf</include>
</busconfig>
EOF

dbus-daemon --config-file="$work/bus.conf" --nofork --nopidfile 2>"$work/daemon.log" &
daemon_pid=$!
export DBUS_SYSTEM_BUS_ADDRESS="unix:path=$work/bus"
for _ in $(seq 100); do [ -S "$work/bus" ] && break; sleep 0.1; done
[ -S "$work/bus" ] || { echo "dbus policy: dbus-daemon did not start:" >&2; cat "$work/daemon.log" >&2; exit 1; }
# (It may say it cannot raise its fd limit when not in the init namespace: not about the policy.)
if grep -v "fd limit" "$work/daemon.log" | grep -q .; then
  echo "dbus policy: dbus-daemon complained about the policy:" >&2; cat "$work/daemon.log" >&2; exit 1
fi

as_service=(setpriv --reuid=nobody --regid=nogroup --clear-groups)
as_operator=(setpriv --reuid=daemon --regid=daemon --groups=users)
as_stranger=(setpriv --reuid=bin --regid=bin --clear-groups)

failures=0
# expect OUTCOME DESCRIPTION COMMAND...: OUTCOME is "denied" (AccessDenied) or "allowed" (anything else
# that shows the message got through: a reply, or the stand-in's UnknownMethod).
expect() {
  local outcome="$1" description="$2"
  shift 2
  local answer
  answer="$("$@" 2>&1 || true)"
  local got=allowed
  [[ "$answer" == *"org.freedesktop.DBus.Error.AccessDenied"* ]] && got=denied
  if [[ "$got" == allowed && "$answer" == *"ServiceUnknown"* ]]; then got="not delivered (no owner)"; fi
  if [ "$got" = "$outcome" ]; then
    echo "ok: $description is $outcome"
  else
    echo "FAIL: $description: expected $outcome, got $got: ${answer%%$'\n'*}" >&2
    failures=$((failures + 1))
  fi
}

request_name=(dbus-send --system --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus
  org.freedesktop.DBus.RequestName string:io.hrbridge.Bridge1 uint32:4)
expect denied "owning the name as another user" "${as_stranger[@]}" "${request_name[@]}"
expect denied "owning the name as an operator" "${as_operator[@]}" "${request_name[@]}"
expect allowed "owning the name as root" "${request_name[@]}"
has_owner() {
  dbus-send --system --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
    org.freedesktop.DBus.NameHasOwner string:io.hrbridge.Bridge1 2>/dev/null | grep -q "boolean true"
}
# root's dbus-send has exited; wait until the bus has noticed, so the name is free for the stand-in.
for _ in $(seq 50); do has_owner || break; sleep 0.1; done

# The stand-in service: python-dbusmock owning the name as the service user.
"${as_service[@]}" env HOME="$work" /usr/bin/python3 -m dbusmock --system \
  io.hrbridge.Bridge1 /io/hrbridge/Bridge1 io.hrbridge.Bridge1 >"$work/owner.log" 2>&1 &
owner_pid=$!
owned=false
for _ in $(seq 100); do
  if has_owner; then
    owned=true
    break
  fi
  kill -0 "$owner_pid" 2>/dev/null || break
  sleep 0.1
done
owner_uid="$(dbus-send --system --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
  org.freedesktop.DBus.GetConnectionUnixUser string:io.hrbridge.Bridge1 2>/dev/null | sed -n 's/.*uint32 //p')"
if [ "$owned" = true ] && [ "$owner_uid" = "$(id -u nobody)" ]; then
  echo "ok: the service user owns io.hrbridge.Bridge1"
else
  echo "FAIL: the service user could not own io.hrbridge.Bridge1 (owner uid: ${owner_uid:-none}):" >&2
  cat "$work/owner.log" >&2
  failures=$((failures + 1))
fi

call() { echo dbus-send --system --print-reply --dest=io.hrbridge.Bridge1 /io/hrbridge/Bridge1 "$@"; }
status=($(call io.hrbridge.Bridge1.Status))
properties=($(call org.freedesktop.DBus.Properties.GetAll string:io.hrbridge.Bridge1))
introspect=($(call org.freedesktop.DBus.Introspectable.Introspect))
mock_control=($(call org.freedesktop.DBus.Mock.AddMethod string:io.hrbridge.Bridge1 string:X string: string: string:))

expect allowed "root calling Status" "${status[@]}"
expect allowed "an operator (group) calling Status" "${as_operator[@]}" "${status[@]}"
expect allowed "an operator reading properties" "${as_operator[@]}" "${properties[@]}"
expect allowed "an operator introspecting" "${as_operator[@]}" "${introspect[@]}"
expect denied "an operator calling another interface" "${as_operator[@]}" "${mock_control[@]}"
expect denied "another user calling Status" "${as_stranger[@]}" "${status[@]}"
expect denied "another user reading properties" "${as_stranger[@]}" "${properties[@]}"
expect denied "another user introspecting" "${as_stranger[@]}" "${introspect[@]}"

[ "$failures" -eq 0 ] || { echo "dbus policy: $failures check(s) failed" >&2; exit 1; }
