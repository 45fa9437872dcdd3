# Set-up shared by the bench scripts (sourced, not run): the working
# directory, Debian's python3 (not any other python3 on the PATH) with the
# packages a script needs, and /usr/bin/time.
dir=${BENCH_DIR:-/tmp/cronus-bench}
mkdir -p "$dir"
py=/usr/bin/python3

# need_py MODULE PACKAGE installs Debian's PACKAGE when MODULE is missing.
need_py() {
  $py -c "import $1" 2>/dev/null || { apt-get update -qq && apt-get install -y -qq "$2" >/dev/null; }
}

need_time() {
  [ -x /usr/bin/time ] || { apt-get update -qq && apt-get install -y -qq time >/dev/null; }
}
