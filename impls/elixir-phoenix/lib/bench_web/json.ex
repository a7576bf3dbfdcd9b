defmodule BenchWeb.JSON do
  @moduledoc """
  The JSON decoder of `Plug.Parsers` on POST /validate: Jason plus a nesting limit.

  Jason decodes any depth without crashing, but a document nested deeper than
  any real request is rejected (a 400 through `Plug.Parsers.ParseError`), as
  Jackson, serde_json or Python's json do.
  """

  @max_depth 1000

  defmodule NestingTooDeepError do
    defexception [:max_depth]

    @impl true
    def message(%{max_depth: max_depth}),
      do: "arrays and objects are nested more than #{max_depth} levels deep"
  end

  def decode!(body) do
    document = Jason.decode!(body)

    if within_depth?(document, @max_depth) do
      document
    else
      raise NestingTooDeepError, max_depth: @max_depth
    end
  end

  defp within_depth?(container, 0) when is_map(container) or is_list(container), do: false

  defp within_depth?(%{} = object, depth),
    do: Enum.all?(object, fn {_key, value} -> within_depth?(value, depth - 1) end)

  defp within_depth?(array, depth) when is_list(array),
    do: Enum.all?(array, &within_depth?(&1, depth - 1))

  defp within_depth?(_scalar, _depth), do: true
end
