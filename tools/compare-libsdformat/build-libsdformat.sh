#!/bin/sh
# Builds libsdformat 15 and what it needs (gz-cmake 4, gz-utils 3,
# gz-math 8) from source trees under $ROOT/src into $ROOT/install, tests
# and bindings off, two jobs at most; then sdf-links against them.
# Usage: build-libsdformat.sh ROOT   (ROOT/src holds the four checkouts)
set -e
ROOT=$(cd "${1:?usage: build-libsdformat.sh ROOT}" && pwd)
HERE=$(cd "$(dirname "$0")" && pwd)
P=$ROOT/install
for r in gz-cmake gz-utils gz-math sdformat; do
  cmake -S "$ROOT/src/$r" -B "$ROOT/build/$r" -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF \
    -DSKIP_PYBIND11=ON -DSKIP_SWIG=ON -DCMAKE_INSTALL_PREFIX="$P" -DCMAKE_PREFIX_PATH="$P"
  cmake --build "$ROOT/build/$r" -j2
  cmake --install "$ROOT/build/$r"
done
g++ -std=c++17 -O2 -o "$ROOT/sdf-links" "$HERE/sdf-links.cc" \
  -I"$P/include/gz/sdformat15" -I"$P/include/gz/math8" -I"$P/include/gz/utils3" \
  -L"$P/lib" -Wl,--disable-new-dtags,-rpath,"$P/lib" -lsdformat15 -lgz-math8 -lgz-utils3
echo "built $ROOT/sdf-links"
