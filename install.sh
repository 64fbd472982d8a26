#!/usr/bin/env bash
# AsAt installer (Linux, macOS): runs the product in Docker containers.
#
#   ./install.sh            check Docker, ask for an API key (Enter = fully local), write .env,
#                           build and start everything, wait until healthy, print where to go
#   ./install.sh --local    the same without questions: extractive answers, no key
#   ./install.sh --no-start write or update .env only
#
# Re-running it updates: it rebuilds the images from this checkout and restarts what changed.
# .env is written once and kept (keys that .env.example gained since are appended, no value is
# ever overwritten). Windows: install.ps1 does the same.
#
# Exit codes: 0 running; 1 bad usage or answer; 2 no Docker; 3 no Compose v2; 4 Docker daemon
# not reachable; 5 a service failed or was not healthy in time; 6 the corpus is not found.
set -euo pipefail

COMPOSE_FILE_NAME="docker-compose.dev.yml"
ENV_FILE=".env"
EXAMPLE_FILE=".env.example"
# Services that run once and exit (restart: "no" in the compose file); the rest must be healthy.
ONE_SHOT_SERVICES=("audit-migrate" "audit-keygen" "ingest-build" "extraction-migrate" "accounts-migrate")
# Secrets generated once (random hex) when empty in .env: the database passwords and the service token
# the internal services require of every caller.
PASSWORD_KEYS=("ASAT_POSTGRES_SUPERUSER_PASSWORD" "ASAT_DB_OWNER_PASSWORD" "ASAT_DB_APP_PASSWORD" "ASAT_SERVICE_TOKEN")
PROVIDERS=("aggregator" "openai_compatible")
HEALTH_TIMEOUT="${ASAT_INSTALL_TIMEOUT:-900}"
POLL_SECONDS="${ASAT_INSTALL_POLL_SECONDS:-5}"

say() { printf '%s\n' "$*"; }
fail() {
  local code="$1"
  printf 'error: %s\n' "$2" >&2
  shift 2
  if (($#)); then
    printf '%s\n' "$@" >&2
  fi
  exit "$code"
}

usage() {
  sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'
}

compose() { docker compose -f "$COMPOSE_FILE_NAME" "$@"; }

check_docker() {
  if ! command -v docker >/dev/null 2>&1; then
    fail 2 "Docker is not installed: there is no 'docker' command on PATH." \
      "  Linux: install Docker Engine with the Compose plugin (https://docs.docker.com/engine/install/)," \
      "         then 'sudo usermod -aG docker \$USER' and log in again." \
      "  macOS: install Docker Desktop (https://docs.docker.com/desktop/) and start it." \
      "Then run ./install.sh again."
  fi
  local version
  if ! version="$(docker compose version --short 2>/dev/null)"; then
    fail 3 "Docker Compose v2 is missing: 'docker compose version' failed." \
      "  Debian/Ubuntu: sudo apt-get install docker-compose-plugin" \
      "  Other Linux: https://docs.docker.com/compose/install/linux/" \
      "  Docker Desktop ships it: update Docker Desktop." \
      "  The old standalone 'docker-compose' (v1) is not supported." \
      "Then run ./install.sh again."
  fi
  version="${version#v}"
  local major="${version%%.*}"
  if ! [[ "$major" =~ ^[0-9]+$ ]] || ((major < 2)); then
    fail 3 "Docker Compose v2 or later is needed; 'docker compose version' says ${version}." \
      "  Update Docker (Engine with the Compose plugin, or Docker Desktop), then run ./install.sh again."
  fi
  if ! docker info >/dev/null 2>&1; then
    fail 4 "Docker is installed but its daemon is not reachable ('docker info' failed)." \
      "  Linux: sudo systemctl start docker; if it runs, add yourself to the docker group:" \
      "         sudo usermod -aG docker \$USER, then log in again." \
      "  macOS: start Docker Desktop and wait until it says it is running." \
      "Then run ./install.sh again."
  fi
  say "Docker and Compose ${version}: ok"
}

# The value of KEY in FILE ('' when absent or empty).
env_value() {
  local key="$1" file="$2" line
  while IFS= read -r line || [[ -n "$line" ]]; do
    if [[ "$line" == "$key="* ]]; then
      printf '%s' "${line#"$key="}"
      return 0
    fi
  done <"$file"
  return 0
}

has_key() {
  local key="$1" file="$2" line
  while IFS= read -r line || [[ -n "$line" ]]; do
    [[ "$line" == "$key="* ]] && return 0
  done <"$file"
  return 1
}

# Set KEY=VALUE in FILE, in place, keeping every other line and the file's permissions.
set_env_value() {
  local key="$1" value="$2" file="$3" line tmp
  tmp="$(mktemp "${file}.XXXXXX")"
  while IFS= read -r line || [[ -n "$line" ]]; do
    if [[ "$line" == "$key="* ]]; then
      printf '%s=%s\n' "$key" "$value"
    else
      printf '%s\n' "$line"
    fi
  done <"$file" >"$tmp"
  chmod 600 "$tmp"
  mv "$tmp" "$file"
}

valid_value() { [[ "$1" =~ ^[A-Za-z0-9._~+/=:-]*$ ]]; }

random_hex() { od -An -tx1 -N24 /dev/urandom | tr -d ' \n'; }
# An ASAT_SECRET_KEY value: key id k1 and 32 random bytes in base64.
random_secret_key() { printf 'k1:%s' "$(head -c 32 /dev/urandom | base64 | tr -d '\n')"; }

# Read one line of the answer into REPLY ('' at end of input).
ask() {
  local prompt="$1" secret="${2:-}"
  REPLY=""
  printf '%s' "$prompt" >&2
  if [[ "$secret" == secret && -t 0 ]]; then
    IFS= read -r -s REPLY || REPLY=""
    printf '\n' >&2
  else
    IFS= read -r REPLY || REPLY=""
    [[ -t 0 ]] || printf '\n' >&2
  fi
}

# Sets PROVIDER, MODEL, BASE_URL, API_KEY.
choose_provider() {
  PROVIDER="extractive" MODEL="" BASE_URL="" API_KEY=""
  if [[ "$1" == local ]]; then
    return 0
  fi
  say ""
  say "AsAt answers fully locally by default: extractive answers that quote the law, no model, no key."
  say "With an API key it drafts answers with a hosted model (every quote is still verified)."
  ask "API key (press Enter for fully local): " secret
  API_KEY="$REPLY"
  if [[ -z "$API_KEY" ]]; then
    say "Fully local: ASAT_GENERATION_PROVIDER=extractive"
    return 0
  fi
  valid_value "$API_KEY" || fail 1 "the API key has characters .env cannot hold unquoted (spaces, quotes or \$);" \
    "  write it into .env by hand as ASAT_GENERATION_API_KEY=... and run ./install.sh again."
  ask "Provider: aggregator (OpenRouter-style router) or openai_compatible [aggregator]: "
  PROVIDER="${REPLY:-aggregator}"
  local known=0 name
  for name in "${PROVIDERS[@]}"; do
    [[ "$PROVIDER" == "$name" ]] && known=1
  done
  ((known)) || fail 1 "unknown provider '$PROVIDER': answer aggregator or openai_compatible."
  ask "Model id (as the provider names it): "
  MODEL="$REPLY"
  [[ -n "$MODEL" ]] || fail 1 "a model id is needed with an API key (or press Enter at the key prompt for fully local)."
  if [[ "$PROVIDER" == openai_compatible ]]; then
    ask "Base URL of the OpenAI-compatible API (e.g. http://host.docker.internal:8000/v1): "
    [[ -n "$REPLY" ]] || fail 1 "openai_compatible needs a base URL."
  else
    ask "Base URL (press Enter for the provider's default): "
  fi
  BASE_URL="$REPLY"
  if ! valid_value "$MODEL" || ! valid_value "$BASE_URL"; then
    fail 1 "the model id or base URL has spaces, quotes or \$ in it."
  fi
}

# Append to .env the keys .env.example has and .env lacks (with the example's value).
add_missing_keys() {
  local line key added=()
  while IFS= read -r line || [[ -n "$line" ]]; do
    [[ "$line" =~ ^([A-Z][A-Z0-9_]*)= ]] || continue
    key="${BASH_REMATCH[1]}"
    if ! has_key "$key" "$ENV_FILE"; then
      printf '%s\n' "$line" >>"$ENV_FILE"
      added+=("$key")
    fi
  done <"$EXAMPLE_FILE"
  if ((${#added[@]})); then
    say "added to .env (new in .env.example): ${added[*]}"
  fi
}

fill_passwords() {
  local key
  for key in "${PASSWORD_KEYS[@]}"; do
    if [[ -z "$(env_value "$key" "$ENV_FILE")" ]]; then
      set_env_value "$key" "$(random_hex)" "$ENV_FILE"
    fi
  done
  if [[ -z "$(env_value ASAT_SECRET_KEY "$ENV_FILE")" ]]; then
    set_env_value ASAT_SECRET_KEY "$(random_secret_key)" "$ENV_FILE"
  fi
}

write_env() {
  local mode="$1"
  [[ -f "$EXAMPLE_FILE" ]] || fail 1 "$EXAMPLE_FILE is missing: run install.sh from an AsAt checkout."
  if [[ -f "$ENV_FILE" ]]; then
    say "keeping .env (delete it to answer the questions again)"
    add_missing_keys
  else
    choose_provider "$mode"
    (
      umask 077
      cp "$EXAMPLE_FILE" "$ENV_FILE"
    )
    chmod 600 "$ENV_FILE"
    set_env_value ASAT_GENERATION_PROVIDER "$PROVIDER" "$ENV_FILE"
    set_env_value ASAT_GENERATION_MODEL "$MODEL" "$ENV_FILE"
    set_env_value ASAT_GENERATION_BASE_URL "$BASE_URL" "$ENV_FILE"
    set_env_value ASAT_GENERATION_API_KEY "$API_KEY" "$ENV_FILE"
    say "wrote .env"
  fi
  fill_passwords
}

# The corpus must be there before anything starts: an empty corpus would build an empty index.
check_corpus() {
  local dir
  dir="$(env_value ASAT_CORPUS_HOST_DIR "$ENV_FILE")"
  dir="${dir:-../shared/corpus}"
  if [[ ! -f "$dir/SOURCES.json" ]]; then
    fail 6 "the corpus is not at '$dir' (relative to $PWD): there is no SOURCES.json there." \
      "  Set ASAT_CORPUS_HOST_DIR in .env to the corpus folder (the one holding SOURCES.json)," \
      "  then run ./install.sh again."
  fi
}

is_one_shot() {
  local name
  for name in "${ONE_SHOT_SERVICES[@]}"; do
    [[ "$1" == "$name" ]] && return 0
  done
  return 1
}

# The "state health exit-code" of SERVICE in the `compose ps` output PS ('absent - -' if none).
service_status() {
  local service="$1" ps="$2" name rest
  while read -r name rest; do
    if [[ "$name" == "$service" ]]; then
      printf '%s' "$rest"
      return 0
    fi
  done <<<"$ps"
  printf 'absent - -'
}

# Poll `docker compose ps` until every service is healthy (one-shots: exited 0).
wait_healthy() {
  local services=() service ps state health code
  while IFS= read -r service; do
    [[ -n "$service" ]] && services+=("$service")
  done < <(compose config --services)
  local deadline=$((SECONDS + HEALTH_TIMEOUT))
  say "waiting for ${services[*]} (at most ${HEALTH_TIMEOUT}s)"
  while :; do
    ps="$(compose ps --all --format '{{.Service}} {{.State}} {{if .Health}}{{.Health}}{{else}}-{{end}} {{.ExitCode}}')"
    local waiting=()
    for service in "${services[@]}"; do
      read -r state health code <<<"$(service_status "$service" "$ps")"
      if is_one_shot "$service"; then
        if [[ "$state" == exited && "$code" != 0 ]]; then
          fail 5 "$service failed (exit code $code)." \
            "  See why: docker compose -f $COMPOSE_FILE_NAME logs $service" \
            "  Fix it, then run ./install.sh again."
        fi
        [[ "$state" == exited && "$code" == 0 ]] || waiting+=("$service ($state)")
      else
        [[ "$state" == running && "$health" == healthy ]] || waiting+=("$service ($state, $health)")
      fi
    done
    if ((${#waiting[@]} == 0)); then
      say "all services are up"
      return 0
    fi
    if ((SECONDS >= deadline)); then
      fail 5 "not up after ${HEALTH_TIMEOUT}s: ${waiting[*]}" \
        "  See why: docker compose -f $COMPOSE_FILE_NAME logs <service>" \
        "  A first start builds the index from the corpus and can take a while:" \
        "  ASAT_INSTALL_TIMEOUT=1800 ./install.sh waits longer."
    fi
    say "  waiting: ${waiting[*]}"
    sleep "$POLL_SECONDS"
  done
}

print_where() {
  local api_port web_port
  api_port="$(env_value ASAT_RESEARCH_HOST_PORT "$ENV_FILE")"
  web_port="$(env_value ASAT_WEB_HOST_PORT "$ENV_FILE")"
  say ""
  local has_web=0 service
  while IFS= read -r service; do
    [[ "$service" == web ]] && has_web=1
  done < <(compose config --services)
  if ((has_web)); then
    say "AsAt is running: open http://localhost:${web_port:-8740}"
  else
    say "AsAt is running (the web interface is not built yet)."
  fi
  say "Research API: http://localhost:${api_port:-8730} (health: /healthz)"
  say "Logs: docker compose -f $COMPOSE_FILE_NAME logs -f    Stop: docker compose -f $COMPOSE_FILE_NAME down"
  say "Update: pull the new version, then run ./install.sh again (.env is kept)."
}

main() {
  local mode="ask" start=1 arg
  for arg in "$@"; do
    case "$arg" in
      --local) mode="local" ;;
      --no-start) start=0 ;;
      -h | --help)
        usage
        return 0
        ;;
      *) fail 1 "unknown option '$arg' (try --help)" ;;
    esac
  done
  cd "$(dirname "${BASH_SOURCE[0]}")"
  [[ -f "$COMPOSE_FILE_NAME" ]] || fail 1 "$COMPOSE_FILE_NAME not found: run install.sh from an AsAt checkout."
  if ((start)); then
    check_docker
  fi
  write_env "$mode"
  ((start)) || return 0
  check_corpus
  say "building and starting (docker compose -f $COMPOSE_FILE_NAME up -d --build)"
  compose up -d --build --remove-orphans
  wait_healthy
  print_where
}

main "$@"
