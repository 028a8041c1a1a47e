#!/usr/bin/env bash
# Build the site for LAN play and serve it with the local PeerJS signaling server.
#   ./serve.sh [--port 8000]     then open the printed URL (phones: the LAN one)
set -euo pipefail
cd "$(dirname "$0")"
. tools/setup.sh
ensure_node_modules
ensure_build_tools
python3 tools/build.py
exec node tools/serve.mjs "$@"
