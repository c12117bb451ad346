# The cfslab service. Build the jar first (./mvnw -B package -DskipTests), then:
#   docker build -t cfslab:latest .
# Default: embedded H2 under /app/data. With SPRING_PROFILES_ACTIVE=postgres it uses PostgreSQL
# (CFSLAB_DB_URL, CFSLAB_DB_USER, CFSLAB_DB_PASSWORD); see docker-compose.yml.
FROM eclipse-temurin:17-jre
WORKDIR /app
RUN useradd --system --home /app cfslab && mkdir -p /app/data && chown cfslab /app/data
COPY target/cfslab.jar /app/cfslab.jar
USER cfslab
# In a container the service must listen on every interface to be reachable through the published port
# (the default outside a container is 127.0.0.1); set CFSLAB_SECURITY_TOKEN before exposing it further.
ENV SERVER_ADDRESS=0.0.0.0
EXPOSE 8080
VOLUME ["/app/data"]
ENTRYPOINT ["java", "-XX:MaxRAMPercentage=75", "-jar", "/app/cfslab.jar"]
