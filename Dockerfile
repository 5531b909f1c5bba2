# Multi-stage build: compile in the Rust image, run from a small Debian image.
FROM rust:1-bookworm AS build
WORKDIR /src
COPY . .
RUN cargo build --release --locked --bin luddo

FROM debian:bookworm-slim
RUN useradd --system --uid 10001 luddo && mkdir -p /data && chown luddo /data
COPY --from=build /src/target/release/luddo /usr/local/bin/luddo
USER luddo
ENV LUDDO_ADDR=0.0.0.0:8080 LUDDO_DATA_DIR=/data LUDDO_LOG_FORMAT=json
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s --retries=3 CMD ["luddo", "healthcheck"]
ENTRYPOINT ["luddo"]
