# sqslite container image: a static binary on distroless, running as a non-root user.
#
#   docker build -t sqslite .                                        # defaults, no queues
#   docker build -t sqslite --build-arg CONFIG=sqslite.toml .        # bake a config in
#   docker run -p 9324:9324 -v ./sqslite.toml:/etc/sqslite/config:ro sqslite   # or mount one
#
# The config at /etc/sqslite/config may be a sqslite.toml or an ElasticMQ elasticmq.conf
# (told apart by content). Without one the file is empty, which means the defaults.
#
# By default the binary is built here from source (musl). The release workflow instead passes
# `--build-arg BINARY=prebuilt` with its static Linux builds in the context as
# dist/bin/<rust target>/sqslite: each platform's image then carries the very binary of the
# release's download, and an arm64 image needs no hour of emulated compiling. Those are static
# glibc builds, which distroless/static can run: since glibc 2.34 a static binary resolves host
# names (hosts files and DNS, for SNS and trigger endpoints) without loading NSS modules.
ARG BINARY=source

FROM rust:1-alpine AS source
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
    && strip target/release/sqslite \
    && mkdir /out && cp target/release/sqslite /out/sqslite

# Runs on the builder's own platform whatever the image's: it only picks a file.
FROM --platform=$BUILDPLATFORM alpine:3 AS prebuilt
ARG TARGETARCH
COPY dist/bin /dist
RUN case "$TARGETARCH" in \
        amd64) target=x86_64-unknown-linux-gnu ;; \
        arm64) target=aarch64-unknown-linux-gnu ;; \
        *) echo "no prebuilt sqslite for $TARGETARCH" >&2; exit 1 ;; \
    esac \
    && mkdir /out && install -m 0755 "/dist/$target/sqslite" /out/sqslite

FROM ${BINARY} AS binary

# Optional config baked into the image: a path inside the build context.
FROM --platform=$BUILDPLATFORM alpine:3 AS config
ARG CONFIG=""
COPY . /context
RUN mkdir -p /out/etc/sqslite \
    && if [ -n "$CONFIG" ]; then cp "/context/$CONFIG" /out/etc/sqslite/config; \
       else : > /out/etc/sqslite/config; fi

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=binary /out/sqslite /usr/local/bin/sqslite
COPY --from=config --chown=nonroot:nonroot /out/etc/sqslite /etc/sqslite
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
