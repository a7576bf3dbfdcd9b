defmodule BenchWeb.BenchController do
  use BenchWeb, :controller

  action_fallback BenchWeb.FallbackController

  def plaintext(conn, _params) do
    text(conn, "Hello, World!")
  end

  def json(conn, _params) do
    render(conn, :message, message: "Hello, World!")
  end

  def user(conn, %{"id" => id}) do
    # Percent-decoding can yield bytes that are not UTF-8 (`%FF`): not a valid id.
    if String.valid?(id) do
      render(conn, :user, id: id)
    else
      {:error, "the user id is not valid UTF-8 once percent-decoded"}
    end
  end

  # The body alone is validated (`body_params`, not the merged `params`), so a
  # query string can never supply a field.
  def validate(%Plug.Conn{body_params: body} = conn, _params) do
    with {:ok, %{} = fields} <- json_object(body),
         {:ok, name} <- name(fields),
         {:ok, age} <- age(fields) do
      render(conn, :validate, name: name, age: age)
    end
  end

  defp json_object(%{"_json" => %{} = object}), do: {:ok, object}
  defp json_object(_other), do: {:error, "the request body must be a JSON object"}

  defp name(%{"name" => name}) when is_binary(name) and byte_size(name) > 0, do: {:ok, name}
  defp name(%{"name" => ""}), do: {:error, "name must not be empty"}
  defp name(%{"name" => _}), do: {:error, "name must be a string"}
  defp name(_fields), do: {:error, "name is required"}

  defp age(%{"age" => age}) when is_integer(age) and age in 0..150, do: {:ok, age}

  # Jason decodes `30.0` and `3e1` as floats; an integral one is that integer.
  defp age(%{"age" => age}) when is_float(age) and age >= 0 and age <= 150 and age == trunc(age),
    do: {:ok, trunc(age)}

  defp age(%{"age" => age}) when is_number(age),
    do: {:error, "age must be an integer between 0 and 150"}

  defp age(%{"age" => _}), do: {:error, "age must be a number"}
  defp age(_fields), do: {:error, "age is required"}
end
