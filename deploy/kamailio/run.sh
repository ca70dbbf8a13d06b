#!/bin/sh
# Starts the reference gateway in the foreground with its configuration from the environment:
#   TRUNKLINE_URL          Trunkline's base URL, e.g. https://trunkline:8443/v1
#   TRUNKLINE_GATEWAY_KEY  a key of scope gateway (POST /v1/api-keys with an admin key)
#   SIP_LISTEN             listen sockets, separated by spaces or commas (default
#                          udp:0.0.0.0:5060), e.g. "udp:0.0.0.0:5060 tcp:0.0.0.0:5060 tls:0.0.0.0:5061"
#   TLS_CERTIFICATE_FILE, TLS_PRIVATE_KEY_FILE  PEM files, required with a tls: socket
#   GATEWAY_STATE_DIR      where live dialogs, the record spool and registrations are kept
#                          (SQLite files, created here; default /var/lib/trunkline-gateway)
#   GATEWAY_LOOKUP_TIMEOUT seconds a request to Trunkline (lookup, change feed, record) may take
#                          (default 10); past it the lookup counts as unavailable. Lookups are
#                          waited for by lookup workers, never SIP workers (trunkline-lookup.cfg)
#   GATEWAY_LOOKUP_CONCURRENCY lookups asked of Trunkline at once, one lookup worker each (default 24)
#   GATEWAY_LOOKUP_QUEUE   lookups that may wait for a free lookup worker on top (default 48)
#   SIP_DOMAIN, TRUNKLINE_CA_FILE, MAX_CALLS_PER_TRUNK and the rest: see kamailio.cfg
set -eu
here="$(cd "$(dirname "$0")" && pwd)"
: "${TRUNKLINE_URL:?set TRUNKLINE_URL (https://host:port/v1)}"
: "${TRUNKLINE_GATEWAY_KEY:?set TRUNKLINE_GATEWAY_KEY (a key of scope gateway)}"
: "${SIP_DOMAIN:?set SIP_DOMAIN (Trunkline SIP_DOMAIN, the digest realm)}"
# Kamailio's http_client sends credentials as Basic auth from the URL's user part.
scheme="${TRUNKLINE_URL%%://*}"
rest="${TRUNKLINE_URL#*://}"
export GATEWAY_LOOKUP_TIMEOUT="${GATEWAY_LOOKUP_TIMEOUT:-10}"
export TRUNKLINE_HTTPCON="trunkline=>${scheme}://${TRUNKLINE_GATEWAY_KEY}:@${rest};timeout=${GATEWAY_LOOKUP_TIMEOUT}"
# The lookup workers (core async task group "lookups"): one per lookup asked at once.
export TRUNKLINE_LOOKUP_WORKERS="name=lookups;workers=${GATEWAY_LOOKUP_CONCURRENCY:-24}"

# State: one SQLite file per writer (dialog timer, usrloc timer, the spool at shutdown), each
# created from Debian's schema (kamailio-sqlite-modules) or spool.sql when missing.
state="${GATEWAY_STATE_DIR:-/var/lib/trunkline-gateway}"
mkdir -p "$state"
state="$(cd "$state" && pwd)"
schemas=/usr/share/kamailio/db_sqlite
create() {
  db="$1"
  shift
  if [ ! -s "$db" ]; then
    rm -f "$db.new"
    cat "$@" | sqlite3 "$db.new"
    mv "$db.new" "$db"
  fi
}
create "$state/dialogs.sqlite" "$schemas/standard-create.sql" "$schemas/dialog-create.sql"
create "$state/registrations.sqlite" "$schemas/standard-create.sql" "$schemas/usrloc-create.sql"
create "$state/spool.sqlite" "$here/spool.sql"
create "$state/defences.sqlite" "$schemas/standard-create.sql" "$here/defences.sql"
# Kamailio 5.6's htable writes a table back at stop only if it loaded at least one row at start
# (an empty table leaves it unmarked): a placeholder row that matches no address keeps it written.
sqlite3 "$state/defences.sqlite" "INSERT INTO trusted (key_name, key_type, value_type, key_value)
  SELECT '-', 0, 1, '0' WHERE NOT EXISTS (SELECT 1 FROM trusted WHERE key_name = '-')"
export GATEWAY_DIALOG_DB="sqlite:///$state/dialogs.sqlite"
export GATEWAY_REGISTRATIONS_DB="sqlite:///$state/registrations.sqlite"
export GATEWAY_SPOOL_DB="sqlite:///$state/spool.sqlite"
export GATEWAY_DEFENCES_DB="sqlite:///$state/defences.sqlite"

# Listen sockets. Agents are reached over UDP unless their sip_target names another transport,
# so a gateway that takes carriers over TCP or TLS only also listens on UDP at the same address
# and port (without a UDP socket every relay would fail).
listen=""
udp=""
stream=""
tls=""
for socket in $(echo "${SIP_LISTEN:-udp:0.0.0.0:5060}" | tr ',' ' '); do
  case "$socket" in
    udp:*) udp=1 ;;
    tcp:*) stream="${stream:-${socket#tcp:}}" ;;
    tls:*) stream="${stream:-${socket#tls:}}"; tls=1 ;;
    *) echo "SIP_LISTEN: $socket is not proto:address:port (udp, tcp or tls)" >&2; exit 2 ;;
  esac
  listen="$listen -l $socket"
done
if [ -z "$udp" ] && [ -n "$stream" ]; then
  listen="$listen -l udp:$stream"
fi
defines=""
if [ -n "$tls" ]; then
  : "${TLS_CERTIFICATE_FILE:?a tls: socket needs TLS_CERTIFICATE_FILE (PEM)}"
  : "${TLS_PRIVATE_KEY_FILE:?a tls: socket needs TLS_PRIVATE_KEY_FILE (PEM)}"
  defines="-A WITH_TLS"
fi
# Signalling times are formatted from local time: the gateway runs in UTC.
export TZ=UTC
# shellcheck disable=SC2086 # $listen and $defines are lists of words without spaces inside
exec kamailio -DD -E -f "$here/kamailio.cfg" -m "${SHM_MEMORY_MB:-256}" -M "${PKG_MEMORY_MB:-16}" $listen $defines "$@"
