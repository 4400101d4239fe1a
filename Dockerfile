# bpywright image: Python 3.11, the bpy wheel, bubblewrap. Steps mirror `make setup`.
FROM python:3.11-slim-bookworm

RUN apt-get update \
    && apt-get install -y --no-install-recommends bubblewrap make libegl1 libgl1 libxkbcommon0 libsm6 libxi6 libxxf86vm1 libxfixes3 libxrender1 \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /opt/bpywright
COPY pyproject.toml constraints.txt README.md Makefile ./
COPY bpywright ./bpywright
RUN make venv PYTHON=python3.11

ENV PATH=/opt/bpywright/.venv/bin:$PATH \
    BPYWRIGHT_ARTIFACTS=/data
VOLUME /data
ENTRYPOINT ["bpywright"]
CMD ["doctor"]
