#!/usr/bin/env bash
# The official MCP conformance suite against this service (called by .ci/run). Its server scenarios cannot send a
# token, so they run against a loopback instance with MCP_DEV_NO_AUTH; the authorization-server metadata scenario
# of the 0.2.0 line runs against a normal instance. The suite needs Node 22: npx brings it from the npm registry.
set -euo pipefail
cd "$(dirname "$0")/../.."

work=$(mktemp -d)
pids=()
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

suite() { # package-version args...
  local version=$1
  shift
  npx -y -p node@22 -p "@modelcontextprotocol/conformance@$version" -c "conformance $*"
}

start open 18731 MCP_DEV_NO_AUTH=1
for scenario in server-initialize ping tools-list dns-rebinding-protection; do
  suite 0.1.16 server --url http://127.0.0.1:18731/mcp --scenario "$scenario"
done

start normal 18732
suite 0.2.0-alpha.12 authorization --url http://127.0.0.1:18732 --scenario authorization-server-metadata-endpoint
echo "conformance: all scenarios passed"
