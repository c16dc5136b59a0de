#!/usr/bin/env bash
# Publishes every dataId of this folder (*.yaml, one per service; not the per-SKU *-skus.yaml, which the sale console
# writes) to a Nacos server through its open API
# (POST /nacos/v1/cs/configs, accepted by Nacos 2.x and 3.x), as type yaml in group DEFAULT_GROUP (or NACOS_GROUP).
#   NACOS_SERVER_ADDR=127.0.0.1:8848 nacos-config/import.sh
# Optional: NACOS_NAMESPACE (namespace id), NACOS_USERNAME / NACOS_PASSWORD (servers with auth on; a token is
# obtained from /nacos/v1/auth/users/login first). The services read the same four variables.
set -euo pipefail
dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
addr="${NACOS_SERVER_ADDR:?set NACOS_SERVER_ADDR, e.g. 127.0.0.1:8848}"
case "$addr" in http://*|https://*) base="$addr" ;; *) base="http://$addr" ;; esac
group="${NACOS_GROUP:-DEFAULT_GROUP}"
token=""
if [ -n "${NACOS_USERNAME:-}" ]; then
  login="$(curl -sS --connect-timeout 5 --max-time 30 -X POST "$base/nacos/v1/auth/users/login" \
    --data-urlencode "username=$NACOS_USERNAME" --data-urlencode "password=${NACOS_PASSWORD:-}")" || {
    echo "login to $base failed: no answer" >&2; exit 1; }
  token="$(printf '%s' "$login" | sed -n 's/.*"accessToken":"\([^"]*\)".*/\1/p')"
  [ -n "$token" ] || { echo "login to $base as $NACOS_USERNAME failed (wrong user or password?): $login" >&2; exit 1; }
fi
count=0
for file in "$dir"/*.yaml; do
  data_id="$(basename "$file")"
  # a service's per-SKU dataId is the sale console's to write: publishing the local copy would undo its changes
  case "$data_id" in *-skus.yaml) echo "left $data_id to the sale console (not published)"; continue ;; esac
  args=(--data-urlencode "dataId=$data_id" --data-urlencode "group=$group" --data-urlencode "type=yaml"
        --data-urlencode "content@$file")
  [ -n "${NACOS_NAMESPACE:-}" ] && args+=(--data-urlencode "tenant=$NACOS_NAMESPACE")
  [ -n "$token" ] && args+=(--data-urlencode "accessToken=$token")
  answer="$(curl -sS --connect-timeout 5 --max-time 30 -X POST "$base/nacos/v1/cs/configs" "${args[@]}")" || {
    echo "publishing $data_id to $base failed: no answer" >&2; exit 1; }
  if [ "$answer" != "true" ]; then
    hint=""
    [ -z "$token" ] && hint=" (a server with auth on needs NACOS_USERNAME and NACOS_PASSWORD)"
    echo "publishing $data_id to $base failed: $answer$hint" >&2
    exit 1
  fi
  echo "published $data_id (group $group) to $base"
  count=$((count + 1))
done
echo "$count dataId(s) published"
