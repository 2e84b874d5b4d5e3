#!/usr/bin/env bash
# Installs Debian's WordPress, the PHP command line and its MySQL driver for the WordPress suite (test/wordpress/),
# which is skipped with a message on a machine without them. The suite serves WordPress with `php -S` and its own
# MariaDB database, so no web server may start: the package depends on one (apache2 by default), and a policy-rc.d
# that answers 101 ("action forbidden") keeps apt from starting it during the install.
set -euo pipefail

if [ -f /usr/share/wordpress/wp-load.php ] && command -v php >/dev/null 2>&1 && php -m 2>/dev/null | grep -qi '^mysqli$'; then
  exit 0
fi

policy=/usr/sbin/policy-rc.d
placed_policy=0
if [ ! -e "$policy" ]; then
  printf '#!/bin/sh\nexit 101\n' >"$policy"
  chmod 755 "$policy"
  placed_policy=1
fi
cleanup() { if [ "$placed_policy" = 1 ]; then rm -f "$policy"; fi; }
trap cleanup EXIT

# The theme is only recommended, and without one WordPress renders no front-end page (and so never runs wp_head).
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
  wordpress wordpress-theme-twentytwentythree php-cli php-mysql >/dev/null
