package dev.fairbench.conformance.http;

import java.io.IOException;

/** The server closed the connection before sending a single byte of a response. */
public class NoResponseException extends IOException {
  public NoResponseException(String message) {
    super(message);
  }
}
