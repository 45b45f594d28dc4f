#!/usr/bin/env bash
# A Ghost Inspector client in shell, as the CircleCI orb runs one: trigger with immediate=1, poll the result
# until `passing` is not null, then read it (and a suite result's test results).
# Usage: curl-jq.sh BASE_URL API_KEY suite|test ID   (POLL_SECONDS, default 0.25)
# Prints one line per result "NAME passing=BOOL"; exit 0 when the run passed, 1 when it failed, 2 on an error.
set -euo pipefail
base="$1" key="$2" kind="$3" id="$4"
poll="${POLL_SECONDS:-0.25}"

call() {
  local answer
  answer="$(curl -sS --fail-with-body -X "$1" "$base$2")" || { echo "HTTP error on $1 $2: $answer" >&2; exit 2; }
  if [ "$(jq -r '.code' <<<"$answer")" != "SUCCESS" ]; then
    echo "$1 $2: $(jq -r '.message' <<<"$answer")" >&2
    exit 2
  fi
  jq -c '.data' <<<"$answer"
}

if [ "$kind" = suite ]; then
  run="$(call POST "/suites/$id/execute/?apiKey=$key&immediate=1")"
  path="/suite-results/$(jq -r '._id' <<<"$run")/"
else
  run="$(call POST "/tests/$id/execute/?apiKey=$key&immediate=1")"
  path="/results/$(jq -r '._id' <<<"$run")/"
fi
while :; do
  result="$(call GET "$path?apiKey=$key")"
  [ "$(jq -r '.passing' <<<"$result")" != null ] && break
  sleep "$poll"
done
if [ "$kind" = suite ]; then
  call GET "${path}results/?apiKey=$key&count=50&offset=0" | jq -r '.[] | "\(.name) passing=\(.passing)"'
fi
echo "$(jq -r '.name' <<<"$result") passing=$(jq -r '.passing' <<<"$result")"
[ "$(jq -r '.passing' <<<"$result")" = true ]
