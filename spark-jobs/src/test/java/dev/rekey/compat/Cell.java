package dev.rekey.compat;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/** The cell of the compatibility table a test fills: its column's name in docs/compatibility.md. */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
@interface Cell {
  String value();
}
