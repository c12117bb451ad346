# The cfslab service. Build the jar first (./mvnw -B package -DskipTests), then:
#   docker build -t cfslab:latest .
# Default: embedded H2 under /app/data. With SPRING_PROFILES_ACTIVE=postgres it uses PostgreSQL
# (CFSLAB_DB_URL, CFSLAB_DB_USER, CFSLAB_DB_PASSWORD); see docker-compose.yml.
FROM eclipse-temurin:17-jre
WORKDIR /app
RUN useradd --system --home /app cfslab && mkdir -p /app/data && chown cfslab /app/data
COPY target/cfslab.jar /app/cfslab.jar
USER cfslab
EXPOSE 8080
VOLUME ["/app/data"]
ENTRYPOINT ["java", "-XX:MaxRAMPercentage=75", "-jar", "/app/cfslab.jar"]
