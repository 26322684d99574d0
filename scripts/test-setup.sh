#!/usr/bin/env bash
# The system packages the test suite needs, checked and installed when missing (run by scripts/test.sh before any
# test; decision 053). Each is Debian's:
#   chromium                 certificate PDFs and captures (Puppeteer, CHROMIUM_PATH, default /usr/bin/chromium)
#   chromium-headless-shell  the browser Playwright drives (playwright.config.ts)
#   fonts-noto-cjk           a CJK font, so that pages lay out Chinese as a user's system does (decision 049)
#   fontconfig               fc-match, which the font check asks
#   poppler-utils            pdftotext, pdfinfo, pdffonts, pdfsig for the PDF checks
#   ffmpeg                   process capture's video (decision 037)
#   openssl                  the verification example and TSA checks run the OpenSSL command line
#   postgresql-client        pg_dump and pg_restore for the backup tests (the major of embedded-postgres, 15)
#   redis-server             only when nothing answers on 127.0.0.1:6379 (scripts/test-services.ts starts it)
# As root with apt-get, missing packages are installed (apt-get update first). Otherwise it prints one line per missing
# piece and the command that installs them, and exits 1 at once. Nothing here downloads anything but Debian packages.
set -uo pipefail

missing_packages=()
missing_lines=()
need() { # need PACKAGE WHAT: PACKAGE is missing, WHAT says what was looked for
  missing_packages+=("$1")
  missing_lines+=("  $2 (Debian package $1)")
}

[[ -x "${CHROMIUM_PATH:-/usr/bin/chromium}" ]] || need chromium "${CHROMIUM_PATH:-/usr/bin/chromium}"
[[ -x /usr/bin/chromium-headless-shell || -n "${E2E_CHROMIUM_PATH:-}" ]] ||
  need chromium-headless-shell /usr/bin/chromium-headless-shell
command -v fc-match >/dev/null 2>&1 || need fontconfig fc-match
# A CJK font: fontconfig knows a family for Chinese (the same test the Playwright suite makes before it starts).
if ! command -v fc-list >/dev/null 2>&1 || [[ -z "$(fc-list ':lang=zh-cn' family 2>/dev/null)" ]]; then
  need fonts-noto-cjk "a CJK font for Chinese text"
fi
command -v pdftotext >/dev/null 2>&1 || need poppler-utils pdftotext
command -v ffmpeg >/dev/null 2>&1 || need ffmpeg ffmpeg
command -v openssl >/dev/null 2>&1 || need openssl openssl
command -v pg_dump >/dev/null 2>&1 || need postgresql-client pg_dump
redis_answers() {
  local line=''
  { exec 3<>/dev/tcp/127.0.0.1/6379; } 2>/dev/null || return 1
  printf 'PING\r\n' >&3
  read -r -t 2 line <&3 || true
  exec 3>&- 3<&-
  [[ $line == +PONG* ]]
}
if ! redis_answers && ! command -v redis-server >/dev/null 2>&1; then
  need redis-server "redis-server (nothing answers on 127.0.0.1:6379)"
fi

if [[ ${#missing_packages[@]} -eq 0 ]]; then
  exit 0
fi

if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null 2>&1; then
  echo "== apt-get install ${missing_packages[*]}"
  # Short network timeouts: without a reachable mirror this fails in seconds rather than minutes.
  apt_options=(-o Acquire::http::Timeout=20 -o Acquire::https::Timeout=20 -o Acquire::Retries=1)
  if DEBIAN_FRONTEND=noninteractive apt-get "${apt_options[@]}" update -qq </dev/null &&
    DEBIAN_FRONTEND=noninteractive apt-get "${apt_options[@]}" install -y -qq --no-install-recommends \
      "${missing_packages[@]}" </dev/null; then
    exit 0
  fi
  echo "apt-get could not install them (is a Debian mirror reachable?)." >&2
fi

{
  echo "The tests need these, and they are missing:"
  printf '%s\n' "${missing_lines[@]}"
  echo "Install them as root with:"
  echo "  apt-get update && apt-get install -y --no-install-recommends ${missing_packages[*]}"
} >&2
exit 1
