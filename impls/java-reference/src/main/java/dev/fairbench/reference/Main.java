package dev.fairbench.reference;

import io.vertx.core.DeploymentOptions;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;

/** Starts WORKERS event loops, each running one instance of the HTTP verticle. */
public final class Main {

  private Main() {}

  public static void main(String[] args) {
    ServerSettings settings;
    try {
      settings = ServerSettings.fromEnvironment(System.getenv());
    } catch (IllegalArgumentException e) {
      System.err.println("java-reference: " + e.getMessage());
      System.exit(2);
      return;
    }

    Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(settings.workers()));
    try {
      vertx.deployVerticle(
              () -> new HttpVerticle(settings.host(), settings.port()),
              new DeploymentOptions().setInstances(settings.workers()))
          .await();
    } catch (Exception e) {
      System.err.printf(
          "java-reference: cannot listen on %s:%d: %s%n", settings.host(), settings.port(), e.getMessage());
      vertx.close();
      System.exit(1);
    }
    System.out.printf(
        "java-reference listening on %s:%d with %d event loop(s)%n",
        settings.host(), settings.port(), settings.workers());
  }
}
