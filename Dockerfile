# sqslite container image: a static musl binary on distroless, running as a non-root user.
#
#   docker build -t sqslite .                                        # defaults, no queues
#   docker build -t sqslite --build-arg CONFIG=sqslite.toml .        # bake a config in
#   docker run -p 9324:9324 -v ./sqslite.toml:/etc/sqslite/config:ro sqslite   # or mount one
#
# The config at /etc/sqslite/config may be a sqslite.toml or an ElasticMQ elasticmq.conf
# (told apart by content). Without one the file is empty, which means the defaults.

FROM rust:1-alpine AS build
RUN apk add --no-cache musl-dev
WORKDIR /src
# Dependencies first, so editing the source does not rebuild them.
COPY Cargo.toml Cargo.lock ./
RUN mkdir src && echo 'fn main() {}' > src/main.rs && touch src/lib.rs \
    && cargo build --release --locked --bin sqslite \
    && rm -rf src
# Then the whole context (.dockerignore leaves out builds and installs): the build reads more
# than src/, the guide (build.rs renders docs/src) and the drills it ships (examples/game-days).
COPY . .
RUN touch src/main.rs src/lib.rs \
    && cargo build --release --locked --bin sqslite \
    && strip target/release/sqslite
# Optional config baked into the image: a path inside the build context.
ARG CONFIG=""
RUN mkdir -p /out/etc/sqslite \
    && if [ -n "$CONFIG" ]; then cp "/src/$CONFIG" /out/etc/sqslite/config; \
       else : > /out/etc/sqslite/config; fi

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /src/target/release/sqslite /usr/local/bin/sqslite
COPY --from=build --chown=nonroot:nonroot /out/etc/sqslite /etc/sqslite
ENV SQSLITE_HOST=0.0.0.0 \
    SQSLITE_PORT=9324 \
    SQSLITE_CONFIG=/etc/sqslite/config
EXPOSE 9324
USER nonroot:nonroot
# distroless has no curl: the binary probes its own /health, which answers 200 only once
# every declared queue exists.
HEALTHCHECK --interval=5s --timeout=3s --start-period=2s --retries=3 \
    CMD ["/usr/local/bin/sqslite", "health"]
ENTRYPOINT ["/usr/local/bin/sqslite"]
