#!/usr/bin/env bash
# The official MCP conformance suite against this service (called by .ci/run). Its server scenarios cannot send a
# token, so they run against a loopback instance with MCP_DEV_NO_AUTH; the authorization-server scenario runs
# against a normal instance. The suite needs Node 22: npx brings it from the npm registry.
#
# Each revision's requirement set runs whole, judged check by check against expected-<revision>.yml (the checks
# that need the suite's own fixture tools, resources and prompts, which /mcp does not serve). A requirement set's
# unscored scenarios (the tasks extension, the pending ones) cannot fail that run, so each of them runs again on
# its own, where the same baseline applies and every other check counts.
set -euo pipefail
cd "$(dirname "$0")/../.."

suite_version=0.2.0-alpha.12
work=$(mktemp -d)
pids=()
failed=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT

start() { # name port extra-env...
  local name=$1 port=$2
  shift 2
  env PORT="$port" HOST=127.0.0.1 DATABASE_URL="$work/$name.db" LOG_LEVEL=warn "$@" node --import tsx src/main.ts > "$work/$name.log" 2>&1 &
  pids+=($!)
  for _ in $(seq 1 60); do
    curl -fsS "http://127.0.0.1:$port/healthz" > /dev/null 2>&1 && return 0
    sleep 0.5
  done
  cat "$work/$name.log"
  return 1
}

suite() { # label args... (a failing run is noted and the others still run)
  local label=$1
  shift
  echo
  echo "##### conformance: $label"
  if ! npx -y -p node@22 -p "@modelcontextprotocol/conformance@$suite_version" -c "conformance $* -o $work/results"; then
    failed+=("$label")
  fi
}

mcp=http://127.0.0.1:18731/mcp
start open 18731 MCP_DEV_NO_AUTH=1

baseline=test/conformance/expected-2026-07-28.yml
suite "requirements 2026-07-28" server --url "$mcp" --requirements 2026-07-28 --expected-failures "$baseline"
for scenario in tasks-lifecycle tasks-capability-negotiation tasks-wire-fields tasks-request-state-removal \
  tasks-mrtr-input tasks-request-headers tasks-dispatch-and-envelope tasks-status-notifications \
  tasks-required-task-error tasks-mrtr-composition json-schema-2020-12 http-header-validation \
  http-custom-header-server-validation; do
  # --force: the tasks scenarios belong to an extension, not to a revision.
  suite "$scenario (2026-07-28, unscored)" server --url "$mcp" --spec-version 2026-07-28 --force --scenario "$scenario" --expected-failures "$baseline"
done

baseline=test/conformance/expected-2025-11-25.yml
suite "requirements 2025-11-25" server --url "$mcp" --requirements 2025-11-25 --expected-failures "$baseline"
for scenario in server-session-lifecycle json-schema-2020-12 server-sse-polling; do
  suite "$scenario (2025-11-25, unscored)" server --url "$mcp" --spec-version 2025-11-25 --scenario "$scenario" --expected-failures "$baseline"
done

suite "server-initialize 2025-06-18" server --url "$mcp" --spec-version 2025-06-18 --scenario server-initialize
# The suite dates server-initialize from 2025-06-18; the handshake is the same on 2025-03-26, which /mcp still serves.
suite "server-initialize 2025-03-26" server --url "$mcp" --spec-version 2025-03-26 --force --scenario server-initialize

# authorization-code-grant, the suite's other authorization-server scenario, waits for a person to sign in and
# consent in a browser, so it cannot run here.
start normal 18732
suite "authorization-server-metadata-endpoint" authorization --url http://127.0.0.1:18732 --scenario authorization-server-metadata-endpoint

echo
if [ ${#failed[@]} -gt 0 ]; then
  echo "conformance: failed:"
  printf '  %s\n' "${failed[@]}"
  exit 1
fi
echo "conformance: all runs passed (known failures: test/conformance/expected-*.yml)"
