# Shell functions of .ci/setup and .ci/setup_tests (sourced; PY is the venv's interpreter).
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"

apt_install() {  # apt_install PKG...: install the missing Debian packages, if apt exists
  local need=()
  for pkg in "$@"; do dpkg -s "$pkg" >/dev/null 2>&1 || need+=("$pkg"); done
  [ ${#need[@]} -gt 0 ] && command -v apt-get >/dev/null || return 0
  echo "  apt-get install ${need[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}" >/dev/null
}

pip_logged() {  # pip_logged LOG ARGS...: "$PY" -m pip install ARGS, a line per download, log kept
  local log=$1 status
  shift
  set +e
  "$PY" -m pip install --disable-pip-version-check --root-user-action=ignore \
    --progress-bar off "$@" 2>&1 | tee "$log" \
    | awk '/^Collecting/ { print "  " $0; fflush() }
           /^Installing collected/ { print "  installing " NF - 3 " packages..."; fflush() }
           /^Successfully installed/ { print "  installed " NF - 2 " packages" }'
  status=${PIPESTATUS[0]}
  set -e
  if [ "$status" -ne 0 ]; then
    tail -n 25 "$log"
    echo "setup: pip install failed (exit $status); full log: $log" >&2
    exit "$status"
  fi
}
