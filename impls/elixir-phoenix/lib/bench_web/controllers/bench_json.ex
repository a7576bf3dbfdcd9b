defmodule BenchWeb.BenchJSON do
  def message(%{message: message}), do: %{message: message}

  def user(%{id: id}), do: %{id: id, name: "User " <> id}

  def validate(%{name: name, age: age}), do: %{name: name, age: age, valid: true}
end
