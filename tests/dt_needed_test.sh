#!/usr/bin/env bash
# What the project ships needs of the system only its C and C++ runtime:
# each artefact's DT_NEEDED entries (readelf -d) are among glibc's,
# libstdc++'s, libm's and libgcc's. Abseil, zlib, zstd and libmicrohttpd are
# linked in (third_party/debian_sources.bzl). Skipped for
# a sanitizer build, whose runtime is its own.
set -euo pipefail
runtime='libc.so.6 libm.so.6 libstdc++.so.6 libgcc_s.so.1 ld-linux-x86-64.so.2'
if grep -qa AddressSanitizer player/sample; then
  echo "note: sanitizer build; the DT_NEEDED check is skipped"
  exit 0
fi
status=0
for artefact in api/libmnk.so python/_mnk_cp311.so player/play player/sample \
                serve/serve solver/solve verify/verify search/book/book; do
  allowed="$runtime"
  needed=$(readelf -d "$artefact" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
  for library in $needed; do
    case " $allowed " in
      *" $library "*) ;;
      *) echo "FAIL: $artefact needs $library"; status=1 ;;
    esac
  done
  echo "$artefact: $(echo $needed)"
done
exit $status
