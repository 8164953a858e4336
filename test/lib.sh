# Shared helpers of the test scripts; source it from test/*.sh.

# lock_fresh DIR: succeeds when DIR/node_modules was installed from a
# package-lock.json of the content DIR holds now (the stamp file
# node_modules/.agui-lock-sha256, which internal/nodetest writes too).
lock_fresh() {
  local dir="$1" want got
  want="$(sha256sum "$dir/package-lock.json" | cut -d' ' -f1)" || return 1
  got="$(cat "$dir/node_modules/.agui-lock-sha256" 2>/dev/null)" || return 1
  [[ -n "$want" && "$got" == "$want" ]]
}

# lock_stamp DIR: records that DIR/node_modules holds what the lock pins.
lock_stamp() {
  local dir="$1"
  sha256sum "$dir/package-lock.json" | cut -d' ' -f1 >"$dir/node_modules/.agui-lock-sha256"
}

# npm_install DIR: npm ci in DIR unless its lock file is unchanged since
# the last install.
npm_install() {
  local dir="$1"
  if lock_fresh "$dir"; then
    echo "npm: $dir is up to date with its package-lock.json"
    return 0
  fi
  (cd "$dir" && npm ci --no-fund --no-audit)
  lock_stamp "$dir"
}

# ensure_chromium: exports CHROMIUM, installing Debian's chromium (without
# recommended packages) when it is missing. Installing needs root, or sudo
# without a password; otherwise it says what to run and fails.
ensure_chromium() {
  if [[ -z "${CHROMIUM:-}" ]] && ! command -v chromium >/dev/null; then
    local sudo=""
    if [[ "$(id -u)" != 0 ]]; then
      if command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
        sudo="sudo -n"
      else
        echo "chromium is missing, and installing it needs root. Run:" >&2
        echo "  sudo apt-get update && sudo apt-get install -y --no-install-recommends chromium" >&2
        echo "or set CHROMIUM to a Chromium or Chrome binary." >&2
        return 1
      fi
    fi
    $sudo apt-get update
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends chromium
  fi
  export CHROMIUM="${CHROMIUM:-$(command -v chromium)}"
}
