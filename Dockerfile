# The cfslab service, built from source: `docker compose up --build` (or `docker build -t cfslab:latest .`) on a
# fresh clone, no jar needed beforehand. Stage 1 compiles the project with Maven and Node (the dashboard's
# TypeScript); stage 2 is the runtime image with the jar only.
# Default: embedded H2 under /app/data. With SPRING_PROFILES_ACTIVE=postgres it uses PostgreSQL
# (CFSLAB_DB_URL, CFSLAB_DB_USER, CFSLAB_DB_PASSWORD); see docker-compose.yml.

# Node for the front-end build: the current LTS (Vite 8 needs 20.19+; Node 20 reached its end of life in April 2026).
# Every base image here is listed in README.md's "Base images" with the date its maintenance ends (DeploymentFilesTest).
FROM node:26-trixie-slim AS node

FROM eclipse-temurin:17-jdk AS build
COPY --from=node /usr/local/bin/node /usr/local/bin/node
COPY --from=node /usr/local/lib/node_modules /usr/local/lib/node_modules
RUN ln -s /usr/local/lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm \
    && ln -s /usr/local/lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx
WORKDIR /src
# dependencies first, so that a change of the sources alone reuses these layers
COPY .mvn .mvn
COPY mvnw pom.xml ./
RUN ./mvnw -B -q dependency:resolve -DskipFrontend || true
# npm ci through ensure-deps.mjs, which stamps node_modules with the lockfile's hash: Maven's build below (the same
# script, phase generate-resources) then finds it up to date instead of installing everything a second time
COPY frontend/package.json frontend/package-lock.json frontend/ensure-deps.mjs frontend/
RUN cd frontend && node ensure-deps.mjs
COPY frontend frontend
COPY src src
RUN ./mvnw -B package -DskipTests

FROM eclipse-temurin:17-jre
WORKDIR /app
RUN useradd --system --home /app cfslab && mkdir -p /app/data && chown cfslab /app/data
COPY --from=build /src/target/cfslab.jar /app/cfslab.jar
USER cfslab
# In a container the service must listen on every interface to be reachable through the published port
# (the default outside a container is 127.0.0.1); set CFSLAB_SECURITY_TOKEN before exposing it further.
ENV SERVER_ADDRESS=0.0.0.0
EXPOSE 8080
VOLUME ["/app/data"]
# GuaranteedSafepointInterval=0: no stop-the-world "cleanup" safepoint every second; each one waits for the low-priority
# (nice 10) simulation threads to get a CPU and reach it, and stalls every request meanwhile (docs/benchmarks.md, issue 13)
ENTRYPOINT ["java", "-XX:MaxRAMPercentage=75", "-XX:+UnlockDiagnosticVMOptions", "-XX:GuaranteedSafepointInterval=0", "-jar", "/app/cfslab.jar"]
