#!/bin/sh
# Starts the reference gateway in the foreground with its configuration from the environment:
#   TRUNKLINE_URL          Trunkline's base URL, e.g. https://trunkline:8443/v1
#   TRUNKLINE_GATEWAY_KEY  a key of scope gateway (POST /v1/api-keys with an admin key)
#   SIP_DOMAIN, SIP_LISTEN, TRUNKLINE_CA_FILE, MAX_CALLS_PER_TRUNK: see kamailio.cfg
set -eu
: "${TRUNKLINE_URL:?set TRUNKLINE_URL (https://host:port/v1)}"
: "${TRUNKLINE_GATEWAY_KEY:?set TRUNKLINE_GATEWAY_KEY (a key of scope gateway)}"
: "${SIP_DOMAIN:?set SIP_DOMAIN (Trunkline SIP_DOMAIN, the digest realm)}"
export SIP_LISTEN="${SIP_LISTEN:-udp:0.0.0.0:5060}"
# Kamailio's http_client sends credentials as Basic auth from the URL's user part.
scheme="${TRUNKLINE_URL%%://*}"
rest="${TRUNKLINE_URL#*://}"
export TRUNKLINE_HTTPCON="trunkline=>${scheme}://${TRUNKLINE_GATEWAY_KEY}:@${rest};timeout=2"
# Signalling times are formatted from local time: the gateway runs in UTC.
export TZ=UTC
exec kamailio -DD -E -f "$(dirname "$0")/kamailio.cfg" -m "${SHM_MEMORY_MB:-256}" -M "${PKG_MEMORY_MB:-16}" "$@"
