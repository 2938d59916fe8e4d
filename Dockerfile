# The variago game server as a container image.
#
#   docker build -t variago .
#   docker run --rm -p 8080:8080 -v variago-data:/data variago
#
# The default command serves on 0.0.0.0:8080 with its games in SQLite at /data/variago.db; give
# other arguments to run anything else the binary does (`serve --db postgres://...`, `lab ...`).
# There is no HEALTHCHECK: orchestrators probe GET /api/health themselves (compose.yaml,
# deploy/kubernetes/). `scripts/check-deploy` runs this recipe's steps without Docker.

# ---- build: the one binary ---------------------------------------------------------------------
FROM rust:1-bookworm AS build
WORKDIR /src
COPY . .
# The cache mounts (BuildKit, Docker's default builder) keep crates and build artifacts between
# builds; target/ is a cache mount, so the binary is copied out in the same step.
RUN --mount=type=cache,target=/usr/local/cargo/registry \
    --mount=type=cache,target=/src/target \
    cargo build --release -p variago --locked \
    && install -D -m 0755 target/release/variago /out/variago

# ---- runtime: Debian slim, the binary, a user of its own ---------------------------------------
# No ca-certificates: the binary makes no TLS connection (sqlx is built without TLS, and the
# server speaks plain HTTP; put TLS in the proxy in front of it).
FROM debian:bookworm-slim
RUN groupadd --gid 10001 variago \
    && useradd --uid 10001 --gid 10001 --no-create-home --home-dir /data \
       --shell /usr/sbin/nologin variago \
    && install -d -o 10001 -g 10001 -m 0750 /data
COPY --from=build /out/variago /usr/local/bin/variago
USER 10001:10001
WORKDIR /data
VOLUME /data
EXPOSE 8080
# `docker stop` sends SIGINT (Ctrl-C): the server stops gracefully on it as on SIGTERM (within
# 10 s: docs/server-operating.md, "Restarts"); builds before the SIGTERM handler stopped on SIGINT only, and
# a container's PID 1 never gets a signal it has no handler for.
STOPSIGNAL SIGINT
ENTRYPOINT ["variago"]
CMD ["serve", "--addr", "0.0.0.0:8080", "--db", "sqlite:///data/variago.db"]
