package dev.fairbench.reference;

/** A request body that breaks the contract; its message is sent to the client as the error. */
final class InvalidInputException extends Exception {

  InvalidInputException(String message) {
    super(message, null, false, false);
  }
}
