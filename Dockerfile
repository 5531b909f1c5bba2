# syntax=docker/dockerfile:1
# Multi-stage build: compile in the Rust image, run from a small Debian image. Both base images
# are pinned to a release (Rust 1.95 on Debian 12 "bookworm", and bookworm-slim) by tag, not by
# digest: a rebuild picks up their security updates but never a new Rust or Debian release.
#
# The dependency cache: BuildKit cache mounts (Docker 23+ and `docker compose` build with
# BuildKit by default) keep cargo's registry and the target directory between builds, so a
# change to the source recompiles the server's own crate, not its ~300 dependencies. Chosen over
# cargo-chef because it needs no extra tool or image, follows the workspace as it is, and also
# keeps incremental artefacts; a CI runner without a persistent BuildKit cache builds from cold
# either way. The binary is copied out of the cached target in the same step.
FROM rust:1.95-bookworm AS build
WORKDIR /src
COPY . .
# Only the server package: the load generator (crates/luddo-load) is not in the image.
RUN --mount=type=cache,target=/usr/local/cargo/registry \
    --mount=type=cache,target=/src/target \
    cargo build --release --locked -p luddo --bin luddo \
    && cp target/release/luddo /usr/local/bin/luddo

FROM debian:bookworm-slim
# A numeric user, so that a runtime refusing root (runAsNonRoot) can check it without /etc/passwd.
RUN groupadd --system --gid 10001 luddo && useradd --system --uid 10001 --gid 10001 luddo \
    && mkdir -p /data && chown 10001:10001 /data
COPY --from=build /usr/local/bin/luddo /usr/local/bin/luddo
USER 10001:10001
ENV LUDDO_ADDR=0.0.0.0:8080 LUDDO_DATA_DIR=/data LUDDO_LOG_FORMAT=json
# The SQLite database (when DATABASE_URL names none) and the instance id live here.
VOLUME /data
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s --retries=3 CMD ["luddo", "healthcheck"]
ENTRYPOINT ["luddo"]
