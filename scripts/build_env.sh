# Sourced by scripts/run.sh, test.sh and bench.sh: the environment every build here needs.
#  - Emscripten 3.1.6 (Debian) runs on the machine's Node, which does not search
#    Debian's node modules: emcc needs acorn from /usr/share/nodejs.
#  - Debian's ccache caches every compile in ~/.cache/ccache, so a clean clone
#    (CI clones main afresh on the developer's machine) rebuilds its three trees
#    from the cache. Paths under the checkout are hashed relative to it
#    (CCACHE_BASEDIR, CCACHE_NOHASHDIR), so a clone in another folder hits too;
#    __FILE__ differs between clones only in messages (file_macro sloppiness).
#    A miss takes the headers from the compiler's own dependency file (depend
#    mode) rather than a second, preprocessing run: under Emscripten that run
#    would start the Python driver once more.
export NODE_PATH=/usr/share/nodejs
if command -v ccache >/dev/null; then
  export CCACHE_BASEDIR="$ROOT" CCACHE_NOHASHDIR=1 CCACHE_DEPEND=1
  export CCACHE_SLOPPINESS=file_macro,time_macros,include_file_mtime,include_file_ctime,system_headers
fi
