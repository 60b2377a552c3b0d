#!/usr/bin/env bash
# Installs the tools and the C library into a prefix:
#
#   bazel run //install                  # into ~/.local
#   bazel run //install -- /usr/local    # into /usr/local (as root)
#
#   PREFIX/bin/                 play, serve, sample, solve, verify, book
#   PREFIX/include/mnk/mnk.h    the C API
#   PREFIX/lib/libmnk.so.V      the C library (SONAME libmnk.so.MAJOR),
#                               with its libmnk.so.MAJOR and libmnk.so links
#   PREFIX/lib/pkgconfig/mnk.pc       for `pkg-config --cflags --libs mnk`
#   PREFIX/lib/cmake/mnk/             for CMake's find_package(mnk): the
#                                     imported target mnk::mnk
#   PREFIX/share/doc/mnk/             the manual's pages of the C library
#                                     and of Python (api.md, python.md)
#   PREFIX/share/mnk/csharp/Mnk.cs    the C# binding (one file to compile
#                                     with a program), naming this
#                                     prefix's libmnk.so.MAJOR, and its
#                                     example TicTacToe.cs
#   PREFIX/share/mnk/python/          the Python package's wheels, one for
#                                     each CPython built for: pip install
#                                     --no-index --find-links DIR mnk
#
# Each tool carries what it needs inside it (the built-in tables, Connect
# Four's book, the web page), and needs of the system only its C and C++
# runtime, so the copies work from any folder.
# Programs linked through pkg-config or CMake find libmnk.so by its RUNPATH,
# PREFIX/lib.
set -euo pipefail
prefix="${1:-$HOME/.local}"
case "$prefix" in
  /*) ;;
  *) prefix="${BUILD_WORKING_DIRECTORY:-$PWD}/$prefix" ;;
esac
# The files are in this script's runfiles (bazel run starts it there).
runfiles="${RUNFILES_DIR:-${TEST_SRCDIR:-$0.runfiles}}"
[ -d "$runfiles/mnk" ] && cd "$runfiles/mnk"
tools=(player/play serve/serve player/sample solver/solve verify/verify
       search/book/book)
wheels=(python/mnk-*.whl)
for file in "${tools[@]}" api/libmnk.so api/mnk.h base/version/version.h \
            docs/api.md docs/python.md api/csharp/Mnk.cs \
            api/csharp/TicTacToe.cs "${wheels[0]}"; do
  if [ ! -f "$file" ]; then
    echo "install: $file is missing: run it as bazel run //install" >&2
    exit 1
  fi
done
version=$(sed -n 's/.*kVersion\[\] = "\(.*\)";/\1/p' base/version/version.h)
major=${version%%.*}

mkdir -p "$prefix/bin" "$prefix/include/mnk" "$prefix/lib/pkgconfig" \
  "$prefix/lib/cmake/mnk" "$prefix/share/doc/mnk" "$prefix/share/mnk/python" \
  "$prefix/share/mnk/csharp"
for tool in "${tools[@]}"; do
  cp -f "$tool" "$prefix/bin/" && chmod 0755 "$prefix/bin/${tool##*/}"
done
cp -f api/mnk.h "$prefix/include/mnk/mnk.h"
cp -f api/libmnk.so "$prefix/lib/libmnk.so.$version"
chmod 0755 "$prefix/lib/libmnk.so.$version"
ln -sf "libmnk.so.$version" "$prefix/lib/libmnk.so.$major"
ln -sf "libmnk.so.$major" "$prefix/lib/libmnk.so"
cp -f docs/api.md docs/python.md "$prefix/share/doc/mnk/"
cp -f "${wheels[@]}" "$prefix/share/mnk/python/"
sed 's|const string Library = "libmnk.so.1";|const string Library = "'"$prefix/lib/libmnk.so.$major"'";|' \
  api/csharp/Mnk.cs > "$prefix/share/mnk/csharp/Mnk.cs"
grep -q "\"$prefix/lib/libmnk.so.$major\"" "$prefix/share/mnk/csharp/Mnk.cs"
cp -f api/csharp/TicTacToe.cs "$prefix/share/mnk/csharp/"
chmod 0644 "$prefix/share/mnk/csharp/"*.cs
chmod 0644 "$prefix/share/mnk/python/"*.whl
cat > "$prefix/lib/pkgconfig/mnk.pc" <<PC
prefix=$prefix
libdir=\${prefix}/lib
includedir=\${prefix}/include

Name: mnk
Description: the perfect player of tic-tac-toe and its family (m,n,k-games, gravity, misere)
Version: $version
Cflags: -I\${includedir}
Libs: -L\${libdir} -Wl,-rpath,\${libdir} -lmnk
PC
cat > "$prefix/lib/cmake/mnk/mnkConfig.cmake" <<'CMAKE'
# find_package(mnk): the imported target mnk::mnk (include/mnk/mnk.h and
# lib/libmnk.so of this prefix).
get_filename_component(_mnk_prefix "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
if(NOT TARGET mnk::mnk)
  add_library(mnk::mnk SHARED IMPORTED)
  set_target_properties(mnk::mnk PROPERTIES
    IMPORTED_LOCATION "${_mnk_prefix}/lib/libmnk.so.@MAJOR@"
    IMPORTED_SONAME "libmnk.so.@MAJOR@"
    INTERFACE_INCLUDE_DIRECTORIES "${_mnk_prefix}/include")
endif()
unset(_mnk_prefix)
CMAKE
sed -i "s/@MAJOR@/$major/g" "$prefix/lib/cmake/mnk/mnkConfig.cmake"
cat > "$prefix/lib/cmake/mnk/mnkConfigVersion.cmake" <<CMAKE
# The installed version, $version: any request of the same major version
# and no newer is met (semantic versioning).
set(PACKAGE_VERSION "$version")
if(PACKAGE_FIND_VERSION_MAJOR STREQUAL "$major" AND
   NOT PACKAGE_FIND_VERSION VERSION_GREATER PACKAGE_VERSION)
  set(PACKAGE_VERSION_COMPATIBLE TRUE)
  if(PACKAGE_FIND_VERSION VERSION_EQUAL PACKAGE_VERSION)
    set(PACKAGE_VERSION_EXACT TRUE)
  endif()
elseif(NOT PACKAGE_FIND_VERSION)
  set(PACKAGE_VERSION_COMPATIBLE TRUE)
endif()
CMAKE
echo "installed play, serve, sample, solve, verify and book in $prefix/bin"
echo "installed the C library $version in $prefix (include/mnk/mnk.h," \
  "lib/libmnk.so, lib/pkgconfig/mnk.pc, lib/cmake/mnk)"
echo "installed the C# binding in $prefix/share/mnk/csharp/Mnk.cs"
echo "installed the Python package's wheels in $prefix/share/mnk/python:" \
  "pip install --no-index --find-links $prefix/share/mnk/python mnk"
case ":$PATH:" in
  *":$prefix/bin:"*) ;;
  *) echo "add it to your PATH: export PATH=\"$prefix/bin:\$PATH\"" ;;
esac
